#!/usr/bin/env node
// The bare upload: one HTTP PUT of the whole file as a single stream (fs read stream → undici),
// nothing else. Usage: node bench/media/bare-put.mjs <file> <url>; prints { bytes, ms, status }.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request } from 'undici';

const [file, url] = process.argv.slice(2);
const { size } = await stat(file);
const started = performance.now();
const response = await request(url, { method: 'PUT', body: createReadStream(file), headers: { 'content-length': String(size), 'content-type': 'video/mp4' } });
await response.body.dump();
const ms = performance.now() - started;
if (response.statusCode !== 200) throw new Error(`PUT answered ${response.statusCode}`);
process.stdout.write(`${JSON.stringify({ bytes: size, ms, status: response.statusCode })}\n`);
