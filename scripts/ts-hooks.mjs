// Module hooks that let a plain Node script import the project's TypeScript sources (test
// support, fixtures) without a build: a `.ts` file is stripped of its types by rolldown's
// transform (already a dev dependency for the CLI bundle), and a `./x.js` import written in a
// `.ts` file finds `./x.ts`, as tsc resolves it. Registered by scripts/register-ts.mjs.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'rolldown/experimental';

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) return next(`${specifier.slice(0, -3)}.ts`, context);
    throw error;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const path = fileURLToPath(url);
  const result = transformSync(path, await readFile(path, 'utf8'), { lang: 'ts' });
  if (result.errors.length > 0) throw new Error(`${path}: ${result.errors.map((error) => error.message).join('\n')}`);
  return { format: 'module', source: result.code, shortCircuit: true };
}
