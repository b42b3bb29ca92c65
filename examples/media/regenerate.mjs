// Rewrites the example media files in this folder from test/helpers/media-generators/examples.ts.
// Run: node examples/media/regenerate.mjs
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../scripts/register-ts.mjs';

const { writeExampleMedia } = await import('../../test/helpers/media-generators/examples.ts');

const names = await writeExampleMedia(dirname(fileURLToPath(import.meta.url)));
console.log(`wrote ${names.join(', ')}`);
