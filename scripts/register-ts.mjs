// `node --import ./scripts/register-ts.mjs script.mjs`, or `await import(...)` this file before a
// dynamic import of a `.ts` module: see ts-hooks.mjs.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
