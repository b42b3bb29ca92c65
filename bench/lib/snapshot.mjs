// A private build for benchmarking: `tsc -p tsconfig.build.json` into bench/.tmp/build/dist, with
// package.json, schemas/ and node_modules/ linked beside it. Others rebuilding dist/ during a run
// then cannot mix two builds under a measurement. Use it with BENCH_BUILD=bench/.tmp/build.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './paths.mjs';

export function buildSnapshot() {
  const target = join(root, 'bench/.tmp/build');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', join(target, 'dist')], { cwd: root, stdio: 'inherit' });
  for (const name of ['package.json', 'schemas', 'node_modules']) symlinkSync(join(root, name), join(target, name));
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${buildSnapshot()}\n`);
