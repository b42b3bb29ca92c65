// Rewrites the example media files in this folder from src/media/examples.ts.
// Run after `npm run build`: node examples/media/regenerate.mjs
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeExampleMedia } from '../../dist/src/media/examples.js';

const names = await writeExampleMedia(dirname(fileURLToPath(import.meta.url)));
console.log(`wrote ${names.join(', ')}`);
