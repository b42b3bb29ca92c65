import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every TypeScript file below `folder`, as a path from the project's root. */
function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The files of `files` whose text matches `pattern`. */
function filesMatching(files: readonly string[], pattern: RegExp): string[] {
  return files.filter((file) => pattern.test(readFileSync(file, 'utf8')));
}

/**
 * The terminal is written only through the writers of cli/output.ts (which take `Terminal`, made
 * by `term` and the builders of src/text/terminal.ts), and our workflow commands only through
 * cli/workflow-output.ts: a command or view that wrote a string to a stream itself could print a
 * file name or the remote's words unescaped.
 */
describe('the terminal sink', () => {
  const cli = sources('cli');

  it('is written only by the writer modules of cli/', () => {
    expect(cli.length).toBeGreaterThan(50);
    expect(filesMatching(cli, /process\.(stdout|stderr)\.write|console\.(log|info|warn|error|debug)\b/)).toEqual([]);
    // A stream's own `write` (which takes any string) is called by the writers alone.
    expect(filesMatching(cli, /\bstream\.write\b/)).toEqual(['cli/output.ts', 'cli/workflow-output.ts']);
  });

  it('gets no text from cli/ that skipped `term`: the bare rule and the colour hook are not used there', () => {
    expect(filesMatching(cli, /\bterminalText\(/)).toEqual([]);
    expect(filesMatching([...cli, ...sources('src')], /\bpainted\(/)).toEqual(['cli/views/style.ts', 'src/text/terminal.ts']);
  });
});
