import { CommandLineGuard } from '../src/actions/command-guard.js';
import type { WorkflowCommand } from '../src/actions/workflow-commands.js';

type Write = (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;

/** Where a guarded stream keeps its own, unguarded `write`, for our workflow commands. */
const UNGUARDED = Symbol('postsync unguarded write');

type GuardedStream = NodeJS.WriteStream & { [UNGUARDED]?: Write };

/**
 * Inside GitHub Actions (`GITHUB_ACTIONS=true`), puts a CommandLineGuard on stdout and stderr, so
 * no line that text from a file, a key or the remote starts can be read as a workflow command.
 * Outside Actions nothing changes.
 */
export function guardWorkflowCommands(env: NodeJS.ProcessEnv): void {
  if (env.GITHUB_ACTIONS !== 'true') return;
  for (const stream of [process.stdout, process.stderr] as GuardedStream[]) {
    const guard = new CommandLineGuard();
    const write = stream.write.bind(stream) as Write;
    stream[UNGUARDED] = write;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => write(guard.filter(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')), ...rest)) as typeof stream.write;
  }
}

/**
 * One of our own workflow commands (an annotation line made by `annotation`), written to stderr
 * past the guard, in order with everything else written there.
 */
export function writeWorkflowCommand(command: WorkflowCommand): void {
  const stream = process.stderr as GuardedStream;
  (stream[UNGUARDED] ?? (stream.write.bind(stream) as Write))(command.toString());
}
