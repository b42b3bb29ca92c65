import { term } from '../../src/text/terminal.js';
import { err, out } from '../output.js';
import { InputError } from '../../src/errors.js';
import { startEmulator } from '../../src/emulator/index.js';

export interface ServeFlags {
  host: string;
  port: string;
  fixture?: string;
  data?: string;
  chaos?: string;
  idempotencyTtl: string;
}

/**
 * `postsync serve`: runs the local Public Posting API until SIGINT/SIGTERM. The first stdout
 * line is `listening on <baseUrl>`, for scripts that wait for it; the second `control token:
 * <token>`, which a state-changing `/_emulator/...` request sends as X-Postsync-Token.
 */
export async function runServe(flags: ServeFlags): Promise<void> {
  const port = Number(flags.port);
  if (!/^\d+$/.test(flags.port) || port > 65535) throw new InputError(`--port must be an integer from 0 to 65535, got ${flags.port}`);
  if (!/^\d+$/.test(flags.idempotencyTtl)) throw new InputError(`--idempotency-ttl must be a whole number of seconds (0 or more), got ${flags.idempotencyTtl}`);
  const emulator = await startEmulator({ host: flags.host, port, fixture: flags.fixture, dataDir: flags.data, chaos: flags.chaos, idempotencyTtlSeconds: Number(flags.idempotencyTtl) });
  out.write(term`listening on ${emulator.baseUrl}\ncontrol token: ${emulator.controlToken}\n`);
  if (!flags.fixture) err.write(term`using the demo fixture: project "demo", accounts @demo.photo, @demo.video, @demo.short\n`);
  if (flags.data) err.write(term`persisting to ${flags.data}\n`);
  const stop = (): void => {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    emulator.close().catch((error: unknown) => {
      err.write(term`Error while closing: ${(error as Error).message}\n`);
      process.exitCode = 1;
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
