import { writeSync } from 'node:fs';
import { CommandLineGuard } from '../src/actions/command-guard.js';

/**
 * Inside GitHub Actions (`GITHUB_ACTIONS=true`), puts a CommandLineGuard on stdout and stderr, so
 * no line that text from a file, a key or the remote starts can be read as a workflow command.
 * Outside Actions nothing changes.
 */
export function guardWorkflowCommands(env: NodeJS.ProcessEnv): void {
  if (env.GITHUB_ACTIONS !== 'true') return;
  for (const stream of [process.stdout, process.stderr]) {
    const guard = new CommandLineGuard();
    const write = stream.write.bind(stream) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => write(guard.filter(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')), ...rest)) as typeof stream.write;
  }
}

/**
 * One of our own workflow commands (an annotation line made by `annotation`), written to stderr
 * past the guard. Written synchronously, as every line of ours is, so lines keep their order.
 */
export function writeWorkflowCommand(line: string): void {
  writeSync(process.stderr.fd, line);
}
