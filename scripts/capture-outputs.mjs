#!/usr/bin/env node
// Captures what postsync prints, to show a refactor changed none of it: the human and --json
// output (stdout, stderr, exit code) of validate, plan, status and apply, for examples/ and for
// every case of the bad-input corpus (test/fixtures/bad), with post and media ids, ports, times
// of this run and temporary paths masked. Compare two captures with `diff -r`.
//
//   npm run build && node scripts/capture-outputs.mjs --out /tmp/capture-before
//   node scripts/capture-outputs.mjs --out /tmp/capture-after [--build bench/.tmp/before] [--only examples,valid-bom]
//
// `--build` names a folder holding dist/ (default: this repository), e.g. a copy of the build made
// before the change. Each project runs against its own emulator (this repository's dist/), in
// this order, every run a separate CLI process:
//   copy A: validate, validate --json, plan, plan --json, plan --no-cache, status, status --json,
//           apply --yes --json
//   copy B (fresh emulator): apply --yes --concurrency 1, then plan, plan --json, status,
//           status --json, validate
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import './register-ts.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: { out: { type: 'string' }, build: { type: 'string', default: root }, only: { type: 'string' }, jobs: { type: 'string', default: '2' } },
});
if (flags.out === undefined) throw new Error('usage: node scripts/capture-outputs.mjs --out DIR [--build DIR] [--only a,b] [--jobs 2]');
const out = resolve(flags.out);
const cli = join(resolve(flags.build), 'dist/cli/main.js');
const { startEmulator, DEMO_API_KEY, DEMO_ACCOUNTS } = await import(pathToFileURL(join(root, 'dist/src/emulator/index.js')).href);
const { loadBadCases, projectFiles } = await import(pathToFileURL(join(root, 'test/fixtures/bad/corpus.ts')).href);

/** Instants this close to the capture are times of the run (createdAt, updatedAt...), not of the files. */
const RUN_TIME_MARGIN_MS = 6 * 3600_000;
const startedAt = Date.now();

/** The projects to capture: examples/ and every bad case, each as a function that writes it into a folder. */
function projects() {
  const all = [{ name: 'examples', apiUrlFlag: true, write: (dir) => cpSync(join(root, 'examples'), dir, { recursive: true, filter: (path) => !path.includes('/.postsync') }) }];
  for (const badCase of loadBadCases()) {
    all.push({
      name: `bad/${badCase.name}`,
      apiUrlFlag: badCase.apiUrlFlag,
      write: (dir) => {
        for (const [path, contents] of Object.entries(projectFiles(badCase))) {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          writeFileSync(join(dir, path), contents);
        }
        for (const item of badCase.generate) generate(dir, item);
      },
    });
  }
  const only = flags.only?.split(',');
  return only === undefined ? all : all.filter((project) => only.includes(project.name) || only.includes(project.name.replace(/^bad\//, '')));
}

/** The files a bad case needs that are not committed, as test/robustness/bad-input.test.ts makes them. */
function generate(dir, item) {
  const target = join(dir, item.path);
  mkdirSync(dirname(target), { recursive: true });
  if (item.kind === 'symlink-outside') {
    const outside = join(dir, '..', 'outside', 'secret.png');
    mkdirSync(dirname(outside), { recursive: true });
    cpSync(join(root, 'examples/media/cover.png'), outside);
    symlinkSync(outside, target);
  } else {
    const head = '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\n';
    writeFileSync(target, head + 'a'.repeat(item.bytes - head.length));
  }
}

function runCli(args, cwd) {
  const env = { ...process.env, NO_COLOR: '1', POSTSYNC_API_KEY: DEMO_API_KEY };
  for (const name of ['CI', 'GITHUB_ACTIONS', 'POSTSYNC_API_URL', 'POSTSYNC_DEBUG', 'FORCE_COLOR', 'GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT']) delete env[name];
  return new Promise((done) => {
    execFile(process.execPath, [cli, ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => done({ code: error?.code ?? 0, stdout, stderr }));
  });
}

/** Replaces what differs from run to run: ids (numbered by first appearance), ports, run times, folders. */
function mask(text, context) {
  const ids = new Map();
  return text
    .split(context.dir)
    .join('<project>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (context.fixedIds.has(id)) return id;
      if (!ids.has(id)) ids.set(id, `<id-${ids.size + 1}>`);
      return ids.get(id);
    })
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, (instant) => (Math.abs(Date.parse(instant) - startedAt) < RUN_TIME_MARGIN_MS ? '<now>' : instant));
}

/**
 * apply reports uploads and writes as they finish, several at a time: the order of those lines
 * is not the program's, so each run of them is sorted.
 */
function sortProgressLines(text) {
  const lines = text.split('\n');
  const isProgress = (line) => /^ {2}[↑✓+~\-→✗!] /.test(line);
  for (let start = 0; start < lines.length; start++) {
    if (!isProgress(lines[start])) continue;
    let end = start;
    while (end < lines.length && isProgress(lines[end])) end++;
    lines.splice(start, end - start, ...lines.slice(start, end).sort());
    start = end;
  }
  return lines.join('\n');
}

async function capture(project, fixedIds) {
  const work = mkdtempSync(join(tmpdir(), 'postsync-capture-'));
  const results = {};
  try {
    for (const copy of ['a', 'b']) {
      const dir = join(work, copy, 'project');
      mkdirSync(dir, { recursive: true });
      project.write(dir);
      const emulator = await startEmulator({ port: 0 });
      const context = { dir, fixedIds };
      const run = async (name, args) => {
        const result = await runCli([...(project.apiUrlFlag ? ['--api-url', emulator.baseUrl] : []), ...args], dir);
        const stdout = name.startsWith('apply') ? sortProgressLines(result.stdout) : result.stdout;
        results[`${copy}-${name}`] = mask(`exit ${result.code}\n--- stdout\n${stdout}--- stderr\n${result.stderr}`, context);
      };
      try {
        if (copy === 'a') {
          await run('1-validate.txt', ['validate']);
          await run('2-validate.json', ['validate', '--json']);
          await run('3-plan.txt', ['plan']);
          await run('4-plan.json', ['plan', '--json']);
          await run('5-plan-no-cache.txt', ['--no-cache', 'plan']);
          await run('6-status.txt', ['status']);
          await run('7-status.json', ['status', '--json']);
          await run('8-apply.json', ['apply', '--yes', '--json']);
        } else {
          await run('1-apply.txt', ['apply', '--yes', '--concurrency', '1']);
          await run('2-plan.txt', ['plan']);
          await run('3-plan.json', ['plan', '--json']);
          await run('4-status.txt', ['status']);
          await run('5-status.json', ['status', '--json']);
          await run('6-validate.txt', ['validate']);
        }
      } finally {
        await emulator.close();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const folder = join(out, project.name);
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(results)) writeFileSync(join(folder, name), text);
}

/** The demo accounts' ids are fixed (examples/ names them): they stay as they are. */
const fixedIds = new Set(Object.values(DEMO_ACCOUNTS));
const queue = projects();
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
let done = 0;
const total = queue.length;
await Promise.all(
  Array.from({ length: Number(flags.jobs) }, async () => {
    for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
      await capture(project, fixedIds);
      done += 1;
      process.stderr.write(`\r${done}/${total} ${project.name}`.padEnd(60));
    }
  }),
);
process.stderr.write(`\ncaptured ${total} projects into ${out} in ${Math.round((Date.now() - startedAt) / 1000)} s\n`);
