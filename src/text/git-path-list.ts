/**
 * The paths of a list git writes (`git diff --name-only`, `git ls-files`): one per line, or
 * NUL-separated with `-z`. Without `-z` git puts a path with a quote, a backslash, a control
 * character or (unless core.quotePath=false) a non-ASCII byte in double quotes, C-style, its bytes
 * as octal escapes: `"posts/\346\235\261.md"`. Both forms give the same paths, so a list read here
 * never misses a file for the way it was written. A leading `./` is dropped, blank entries skipped.
 */
export function parseGitPathList(text: string): string[] {
  const entries = text.includes('\0') ? text.split('\0') : text.split(/\r?\n/).map((line) => line.trim()).map(unquoteGitPath);
  return entries.map((entry) => entry.replace(/^\.\//, '')).filter((entry) => entry !== '');
}

const ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** `"a\tb\303\251.md"` → `a<TAB>bé.md`; a line not in double quotes is a path as it is. */
export function unquoteGitPath(line: string): string {
  if (line.length < 2 || !line.startsWith('"') || !line.endsWith('"')) return line;
  const bytes: number[] = [];
  const inner = line.slice(1, -1);
  for (let index = 0; index < inner.length; index += 1) {
    const char = inner[index]!;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const octal = /^[0-3][0-7]{2}/.exec(inner.slice(index + 1));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      index += 3;
      continue;
    }
    const escaped = ESCAPES[inner[index + 1] ?? ''];
    // Git writes no other escape: a lone backslash is kept as it is rather than guessed at.
    if (escaped === undefined) bytes.push(92);
    else {
      bytes.push(escaped);
      index += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
