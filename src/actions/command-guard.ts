/**
 * Under GitHub Actions the runner reads a line of a step's stdout or stderr as a workflow command
 * when it starts with `::` after leading blanks (`::error::`, `::stop-commands::`), and reads a
 * legacy `##[name]` anywhere in a line. Only postsync's own annotations may do that: this guard
 * sits on each output stream and rewrites any other such line so the runner sees plain text,
 * whatever text it came from: `::` at a line start becomes `\u003a:`, `##[` becomes `##\u005b`
 * (escapes JSON reads back as the same characters, so `--json` output stays valid JSON).
 * Our own annotations are written past it (see `cli/workflow-output.ts`).
 */
export class CommandLineGuard {
  /** Whether all written since the last line break is blank: a `::` here would start a command. */
  #lineStart = true;

  /** `chunk` as it may reach the runner. Output is written in whole lines, so `##[` is never split. */
  filter(chunk: string): string {
    const lines = chunk.split('\n');
    const out = lines.map((line, index) => {
      const atStart = index > 0 || this.#lineStart;
      let safe = line.replace(/##\[/g, '##\\u005b');
      if (atStart) safe = safe.replace(/^(\s*)::/, '$1\\u003a:');
      return safe;
    });
    const last = lines[lines.length - 1]!;
    this.#lineStart = (lines.length > 1 || this.#lineStart) && last.trim() === '';
    return out.join('\n');
  }
}
