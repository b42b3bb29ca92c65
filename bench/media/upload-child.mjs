#!/usr/bin/env node
// postsync's upload, in its own process: plans the project (one vidA post with the big video) and
// runs applyPlan in-process with an onEvent listener, as `postsync apply` does. Upload time runs
// from `upload-start` to `upload-done` (multipart: sign, part PUTs 4 at a time, list, complete,
// media complete). Usage: node bench/media/upload-child.mjs <projectDir> <baseUrl> <apiKey>
// Prints { bytes, uploadMs, sendMs, planMs, peakRssMiB, uploadedFiles, applied, failed }.
import { fromDist } from '../lib/paths.mjs';

const [dir, baseUrl, apiKey] = process.argv.slice(2);
const { loadConfig } = await fromDist('src/config/load-config.js');
const { connect } = await fromDist('src/pipeline/connect.js');
const { buildPlan } = await fromDist('src/pipeline/build-plan.js');
const { StateStore } = await fromDist('src/state/state-store.js');
const { applyPlan } = await fromDist('src/apply/apply-plan.js');

const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: apiKey }, flags: { apiUrl: baseUrl } });
const connection = await connect(config, { ci: false });
try {
  const store = await StateStore.open(config.statePath, connection.project);
  const planStarted = performance.now();
  const state = { section: store.section, hash: store.sectionHash() };
  const { plan } = await buildPlan({ config, connection, state, prune: false, selection: null, now: new Date() });
  const planMs = performance.now() - planStarted;
  let startedAt;
  let allSentAt;
  let doneAt;
  let bytes = 0;
  const result = await applyPlan({
    plan,
    client: connection.client,
    store,
    root: config.root,
    onEvent: (event) => {
      if (event.type === 'upload-start') startedAt ??= performance.now();
      if (event.type === 'upload-progress' && event.sentBytes === event.upload.sizeBytes) allSentAt = performance.now();
      if (event.type === 'upload-done') {
        doneAt = performance.now();
        bytes += event.sentBytes;
      }
      if (event.type === 'upload-failed' || event.type === 'change-failed') process.stderr.write(`${event.type}: ${event.error.message}\n`);
    },
  });
  await store.flush();
  process.stdout.write(
    `${JSON.stringify({
      bytes,
      uploadMs: startedAt === undefined || doneAt === undefined ? null : doneAt - startedAt,
      // From upload-start until every byte was handed to the sockets; the rest is server-side.
      sendMs: startedAt === undefined || allSentAt === undefined ? null : allSentAt - startedAt,
      planMs,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
      uploadedFiles: result.uploadedFiles,
      applied: result.applied.length,
      failed: result.failed.length,
    })}\n`,
  );
} finally {
  await connection.close();
}
