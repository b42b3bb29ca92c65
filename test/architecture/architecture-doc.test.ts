import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const DOC = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const SOURCES = [...sourceFiles('src'), ...sourceFiles('cli')].filter((path) => !path.includes('/src/generated/'));
const TEXTS = SOURCES.map((path) => ({ path, text: readFileSync(path, 'utf8') }));

/** Whether `name` is declared (a type, class, function, constant or a member) in `texts`. */
function declared(name: string, texts = TEXTS): boolean {
  const declaration = new RegExp(`\\b(?:interface|class|type|function|const|let|enum)\\s+${name}\\b|^\\s+(?:(?:async|static|readonly|private|get)\\s+)*#?${name}\\s*[(<:=]`, 'm');
  return texts.some(({ text }) => declaration.test(text));
}

/** What the document puts in backticks, and the names in its pipeline drawing. */
const quoted = [...DOC.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
const drawing = /```\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A code name, not a word: a capital after the first letter (camelCase, PascalCase) or ALL_CAPS. */
const codeName = (word: string) => IDENTIFIER.test(word) && /[a-z][A-Z]|^[A-Z]+_[A-Z_]+$|^[A-Z][a-z]+[A-Z]/.test(word);

describe('ARCHITECTURE.md', () => {
  it('names only files and folders that exist', () => {
    const paths = quoted.filter((text) => /^(src|cli|test)\/[\w./*-]*$/.test(text) || /^[a-z-]+\/[\w.-]+\.ts$/.test(text));
    expect(paths.length).toBeGreaterThan(20);
    const missing = paths.filter((path) => {
      if (path.includes('*')) return false;
      return !existsSync(join(ROOT, path)) && !existsSync(join(ROOT, 'src', path));
    });
    expect(missing).toEqual([]);
  });

  it('names only types and functions that exist', () => {
    const names = new Set<string>();
    for (const text of quoted) {
      // `pipeline/checkDesired`, `RunCache.mediaFacts`: each part.
      for (const part of text.split(/[/.]/)) if (codeName(part) || (text.includes('.') && IDENTIFIER.test(part) && !text.endsWith('.ts') && /[A-Z]/.test(text))) names.add(part);
    }
    for (const word of drawing.match(/[A-Za-z_]\w*/g) ?? []) if (codeName(word)) names.add(word);
    expect(names.size).toBeGreaterThan(30);
    expect([...names].filter((name) => !declared(name))).toEqual([]);
  });
});
