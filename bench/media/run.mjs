#!/usr/bin/env node
// Media benchmark (issue 5): a generated 1 GiB MP4 (sparse) uploaded to one emulator process
//  (a) by a bare single-stream PUT (bench/media/bare-put.mjs) to that emulator's storage,
//  (b) by postsync, as the video of a vidA post (bench/media/upload-child.mjs: applyPlan in its
//      own process, timed from upload-start to upload-done, with its peak RSS),
//  (c) then `postsync apply --yes` again: storage PUTs in the request log (must be 0).
// The emulator is bench/media/signing-emulator.mjs (why: see there). Bare and postsync runs
// alternate; each postsync run starts without state, so it uploads the file again.
// Usage: npm run build && node bench/media/run.mjs [--runs 2] [--mib 1024]
// Progress on stderr; the last stdout line is the results as JSON.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { runMeasured } from '../lib/measure.mjs';
import { bin, mediaGenerators, root } from '../lib/paths.mjs';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../lib/project.mjs';
import { isWrite } from '../lib/serve.mjs';
import { loadAverage, median, note, round, summary } from '../lib/stats.mjs';

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '2' }, mib: { type: 'string', default: '1024' } } });
const RUNS = Number(flags.runs);
const MiB = 1024 * 1024;
const SIZE = Number(flags.mib) * MiB;
const { writeMp4File } = await mediaGenerators();

async function startSigningEmulator() {
  const child = spawn(process.execPath, [join(root, 'bench/media/signing-emulator.mjs')], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env: { ...process.env } });
  const [line, tokenLine] = await new Promise((resolve, reject) => {
    const read = [];
    createInterface({ input: child.stdout }).on('line', (text) => {
      read.push(text);
      if (read.length === 2) resolve(read);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  const baseUrl = line.replace('listening on ', '').trim();
  const controlToken = tokenLine.replace('control token: ', '').trim();
  const origin = new URL(baseUrl).origin;
  const api = async (method, path, body) => {
    const response = await request(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await response.body.json();
    if (response.statusCode >= 300) throw new Error(`${method} ${path} → ${response.statusCode} ${JSON.stringify(json)}`);
    return json.data;
  };
  return {
    baseUrl,
    /** A presigned PUT for the whole object of a new multipart video media of `sizeBytes`. */
    async wholeObjectUrl(sizeBytes) {
      const ticket = await api('POST', '/media/uploads', { kind: 'video', contentType: 'video/mp4', sizeBytes, fileName: 'bare.mp4' });
      if (!ticket.upload.multipart) throw new Error('expected a multipart upload for the bare PUT media');
      const signed = new Promise((resolve) => child.once('message', resolve));
      child.send({ sign: `media/${ticket.media.id}/bare.mp4` });
      return (await signed).url;
    },
    async requests() {
      const response = await request(`${origin}/_emulator/requests`);
      return (await response.body.json()).data;
    },
    async clearRequests() {
      await (await request(`${origin}/_emulator/requests`, { method: 'DELETE', headers: { 'x-postsync-token': controlToken } })).body.dump();
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function writeVideoProject(dir) {
  await mkdir(join(dir, 'posts'), { recursive: true });
  await mkdir(join(dir, 'media'), { recursive: true });
  await writeFile(join(dir, 'postsync.yaml'), `accounts:\n  brand-video: ${DEMO_ACCOUNTS.video}\n`);
  await writeFile(join(dir, 'posts/launch.md'), ['---', 'targets:', '  - account: brand-video', '    options: { vidATitle: "Launch film" }', 'media: [media/big.mp4]', '---', 'Our launch film, in full.', ''].join('\n'));
  // Sparse: instant to write and to read (the zero padding is a hole), so the figures measure
  // the upload path rather than this disk.
  await writeMp4File(join(dir, 'media/big.mp4'), { durationSeconds: 600, videoCodec: 'avc1', audioCodec: 'mp4a', width: 1920, height: 1080, sizeBytes: SIZE, sparse: true });
}

const mibPerSecond = (bytes, ms) => bytes / MiB / (ms / 1000);

const work = await mkdtemp(join(tmpdir(), 'postsync-bench-media-'));
const emulator = await startSigningEmulator();
try {
  const project = join(work, 'project');
  await writeVideoProject(project);
  const video = join(project, 'media/big.mp4');
  const bare = [];
  const postsync = [];
  for (let run = 0; run < RUNS; run++) {
    const url = await emulator.wholeObjectUrl(SIZE);
    const put = await runMeasured([join(root, 'bench/media/bare-put.mjs'), video, url]);
    const { ms } = JSON.parse(put.stdout);
    bare.push({ ms, peakRssMiB: put.peakRssMiB });
    note(`bare PUT: ${round(mibPerSecond(SIZE, ms))} MiB/s (${round(ms)} ms), peak RSS ${round(put.peakRssMiB)} MiB`);

    await rm(join(project, '.postsync'), { recursive: true, force: true });
    const child = await runMeasured([join(root, 'bench/media/upload-child.mjs'), project, emulator.baseUrl, DEMO_API_KEY]);
    const outcome = JSON.parse(child.stdout.trim().split('\n').pop());
    if (outcome.failed > 0 || outcome.uploadedFiles !== 1 || outcome.bytes !== SIZE) throw new Error(`postsync upload did not go through: ${child.stdout}\n${child.stderr}`);
    postsync.push({ ms: outcome.uploadMs, sendMs: outcome.sendMs, peakRssMiB: child.peakRssMiB, planMs: outcome.planMs });
    note(`postsync upload: ${round(mibPerSecond(SIZE, outcome.uploadMs))} MiB/s (${round(outcome.uploadMs)} ms, of which ${round(outcome.uploadMs - outcome.sendMs)} ms after the last byte was sent; plan with hashing ${round(outcome.planMs)} ms), peak RSS ${round(child.peakRssMiB)} MiB`);
  }

  await emulator.clearRequests();
  const again = await runMeasured([bin, '-C', project, '--api-url', emulator.baseUrl, 'apply', '--yes'], { env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
  const log = await emulator.requests();
  const reapply = {
    ms: round(again.ms),
    peakRssMiB: round(again.peakRssMiB, 1),
    storagePuts: log.filter((entry) => entry.method === 'PUT' && entry.path.startsWith('/_storage/')).length,
    writeRequests: log.filter(isWrite).length,
    noChanges: /No changes/.test(again.stdout),
  };
  reapply.bytesSent = reapply.storagePuts === 0 ? 0 : null;
  note(`re-apply: ${reapply.storagePuts} storage PUTs, ${reapply.writeRequests} write requests, ${reapply.ms} ms`);

  const bareMiBps = median(bare.map((r) => mibPerSecond(SIZE, r.ms)));
  const postsyncMiBps = median(postsync.map((r) => mibPerSecond(SIZE, r.ms)));
  const sendMiBps = median(postsync.map((r) => mibPerSecond(SIZE, r.sendMs)));
  const result = {
    fileMiB: SIZE / MiB,
    compared: 'both PUT into the same emulator process and storage code; bare = 1 stream of the whole file to a presigned object URL; postsync = multipart (8 MiB parts, 4 in flight) + list + complete (server-side assembly) + media complete',
    bare: { ms: summary(bare.map((r) => r.ms)), MiBps: round(bareMiBps, 1), peakRssMiB: summary(bare.map((r) => r.peakRssMiB), 1) },
    postsync: { uploadMs: summary(postsync.map((r) => r.ms)), afterLastByteMs: summary(postsync.map((r) => r.ms - r.sendMs)), MiBps: round(postsyncMiBps, 1), sendMiBps: round(sendMiBps, 1), peakRssMiB: summary(postsync.map((r) => r.peakRssMiB), 1), planMs: summary(postsync.map((r) => r.planMs)) },
    throughputVsBare: round(postsyncMiBps / bareMiBps, 2),
    reapply,
    loadAverage: loadAverage(),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await emulator.stop();
  await rm(work, { recursive: true, force: true });
}
