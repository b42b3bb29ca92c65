// Reads a V8 .cpuprofile (from `node --cpu-prof`) and lists the functions with the most self time.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { root } from './paths.mjs';

/** Top `count` frames by self time, e.g. [{ ms, share, frame: 'parseState dist/src/state/store.js:67' }]. */
export async function topFrames(profileDir, count = 15) {
  const files = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${profileDir}`);
  const profile = JSON.parse(await readFile(join(profileDir, files[0]), 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = (profile.timeDeltas[index] ?? 0) / 1000;
    total += delta;
    const { callFrame } = byId.get(id);
    const where = callFrame.url ? `${relative(root, callFrame.url.replace(/^file:\/\//, ''))}:${callFrame.lineNumber + 1}` : '';
    const frame = `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
    selfMs.set(frame, (selfMs.get(frame) ?? 0) + delta);
  });
  return [...selfMs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, ms]) => ({ ms: Math.round(ms), share: Math.round((ms / total) * 1000) / 10, frame }));
}

/** Self time summed per source file (node internals grouped as `node:`), top `count`. */
export async function topFiles(profileDir, count = 15) {
  const files = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
  const profile = JSON.parse(await readFile(join(profileDir, files[0]), 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = (profile.timeDeltas[index] ?? 0) / 1000;
    total += delta;
    const url = byId.get(id).callFrame.url;
    const file = !url ? `(${byId.get(id).callFrame.functionName || 'native'})` : url.startsWith('node:') ? 'node:' : relative(root, url.replace(/^file:\/\//, '')).replace(/^node_modules\/([^/]+)\/.*/, 'node_modules/$1');
    totals.set(file, (totals.get(file) ?? 0) + delta);
  });
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, count).map(([file, ms]) => ({ ms: Math.round(ms), share: Math.round((ms / total) * 1000) / 10, file }));
}
