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

  /**
   * `chunk` as it may reach the runner. Output is written in whole lines, so `##[` is never split.
   * A CR starts a line as LF does: the runner splits lines at either.
   */
  filter(chunk: string): string {
    // Even entries are the text between line breaks, odd ones the breaks themselves.
    const parts = chunk.split(/(\r\n|\r|\n)/);
    let atStart = this.#lineStart;
    let out = '';
    parts.forEach((part, index) => {
      if (index % 2 === 1) {
        out += part;
        atStart = true;
        return;
      }
      let safe = part.replace(/##\[/g, '##\\u005b');
      if (atStart) safe = safe.replace(/^(\s*)::/, '$1\\u003a:');
      out += safe;
      atStart = atStart && part.trim() === '';
    });
    this.#lineStart = atStart;
    return out;
  }
}
