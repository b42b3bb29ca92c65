import type { Terminal } from '../src/text/terminal.js';

/**
 * The one way commands write to the terminal: stdout and stderr take `Terminal` only (made by
 * `term`, which escapes every string put into it, and the builders of src/text/terminal.ts), so
 * a file name, a post's text or the remote's words cannot reach the screen unescaped. Our own
 * workflow commands go through `cli/workflow-output.ts`.
 */
export interface Writer {
  write(text: Terminal): void;
}

/** A writer onto a stream (stdout, stderr, or the stream a printer was given). */
export function writerTo(stream: NodeJS.WritableStream): Writer {
  return { write: (text) => void stream.write(text.toString()) };
}

/** stdout: results, `--json`. */
export const out: Writer = writerTo(process.stdout);

/** stderr: notes, progress, errors. */
export const err: Writer = writerTo(process.stderr);
