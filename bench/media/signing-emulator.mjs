#!/usr/bin/env node
// The emulator (the same code as `postsync serve`, demo fixture, in memory) plus one extra: its
// own storage signer, reachable over IPC, so a benchmark can PUT a whole 1 GiB object in ONE
// stream. The API never hands out such a URL (single PUTs are capped at 32 MiB for videos;
// larger videos get 8 MiB multipart parts), so the bare PUT gets a URL for the object key of a
// multipart media: storage then accepts up to that media's declared size, and the stream goes
// through the very same route, signature check and storage write as postsync's part PUTs.
// Prints `listening on <baseUrl>` and `control token: <token>` first, as `postsync serve` does; answers IPC { sign: objectKey } with { url }.
import { fromDist } from '../lib/paths.mjs';

const storageModule = await fromDist('src/emulator/store/storage.js');
let storage;
const open = storageModule.ObjectStorage.open;
// Keep the instance startEmulator opens: its private secret is what signs URLs.
storageModule.ObjectStorage.open = async function captureStorage(options) {
  storage = await open.call(this, options);
  return storage;
};
const { startEmulator } = await fromDist('src/emulator/index.js');
const emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
if (!storage) throw new Error('could not reach the emulator storage signer');

process.on('message', (message) => {
  const expiresMs = Date.now() + 15 * 60 * 1000;
  process.send({ url: `${emulator.origin}${storage.presign('PUT', message.sign, expiresMs)}` });
});
process.on('SIGTERM', async () => {
  await emulator.close();
  process.exit(0);
});
process.stdout.write(`listening on ${emulator.baseUrl}\ncontrol token: ${emulator.controlToken}\n`);
