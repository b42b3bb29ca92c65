// Reads a V8 .cpuprofile (from `node --cpu-prof`) and sums self time per function or per file.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { root } from './paths.mjs';

/** Calls `visit(callFrame, ms)` for every sample of the first .cpuprofile in `profileDir`. */
async function forEachSample(profileDir, visit) {
  const files = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${profileDir}`);
  const profile = JSON.parse(await readFile(join(profileDir, files[0]), 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  profile.samples.forEach((id, index) => visit(byId.get(id).callFrame, (profile.timeDeltas[index] ?? 0) / 1000));
}

/** Sums self time by `keyOf(callFrame)`; the `count` largest, with their share of the total. */
async function selfTimeBy(profileDir, count, keyOf) {
  const totals = new Map();
  let total = 0;
  await forEachSample(profileDir, (callFrame, ms) => {
    total += ms;
    const key = keyOf(callFrame);
    totals.set(key, (totals.get(key) ?? 0) + ms);
  });
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => ({ ms: Math.round(ms), share: Math.round((ms / total) * 1000) / 10, key }));
}

const fileOf = (url) => relative(root, url.replace(/^file:\/\//, ''));

/** Top frames by self time, e.g. [{ ms, share, frame: 'parseState dist/src/state/state-file.js:67' }]. */
export async function topFrames(profileDir, count = 15) {
  const rows = await selfTimeBy(profileDir, count, (callFrame) => {
    const where = callFrame.url ? `${fileOf(callFrame.url)}:${callFrame.lineNumber + 1}` : '';
    return `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
  });
  return rows.map(({ ms, share, key }) => ({ ms, share, frame: key }));
}

/** Self time per source file (node internals as `node:`, each package as one entry), top `count`. */
export async function topFiles(profileDir, count = 15) {
  const rows = await selfTimeBy(profileDir, count, (callFrame) => {
    if (!callFrame.url) return callFrame.functionName.startsWith('(') ? callFrame.functionName : `(${callFrame.functionName || 'native'})`;
    if (callFrame.url.startsWith('node:')) return 'node:';
    return fileOf(callFrame.url).replace(/^(.*\/)?node_modules\/([^/]+)\/.*/, 'node_modules/$2');
  });
  return rows.map(({ ms, share, key }) => ({ ms, share, file: key }));
}
