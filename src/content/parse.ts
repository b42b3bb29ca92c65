import matter from 'gray-matter';
import type { Diagnostic } from '../diagnostics.js';
import { decodeUtf8File } from '../text/decode.js';
import { parseYamlSource, type YamlSource } from '../text/yaml-source.js';

/** A post file split into front-matter (with source positions) and body. */
export interface ParsedPostFile {
  /** Front-matter data; `{}` when the file has none; undefined when it could not be parsed. */
  frontMatter: unknown;
  /** The Markdown body with LF line endings, not yet trimmed. */
  body: string;
  /** 1-based line of the first non-blank body line (for messages about the content). */
  bodyLine: number;
  locate: YamlSource['locate'];
  diagnostics: Diagnostic[];
}

class UnsupportedFrontMatterLanguage extends Error {}

const refuseLanguage = (): object => {
  // gray-matter would eval JavaScript front-matter (`---js`): a post file must never run code.
  throw new UnsupportedFrontMatterLanguage();
};

const nowhere: YamlSource['locate'] = () => undefined;

/**
 * Parses one post file. gray-matter splits it; the front-matter itself goes through the `yaml`
 * package (YAML 1.2 core schema, so dates stay strings) keeping positions for later messages.
 * gray-matter's front-matter text starts right after the opening `---`, so its line numbers are
 * the file's own.
 */
export function parsePostFile(file: string, bytes: Uint8Array): ParsedPostFile {
  const decoded = decodeUtf8File(bytes, file);
  if (!decoded.ok) return failed(decoded.diagnostic);
  const text = decoded.text;
  if (text.trim() === '') {
    return failed({ severity: 'error', code: 'empty-file', message: 'the file is empty', file, line: 1, column: 1, expected: 'front-matter between `---` lines and/or the post text', found: 'an empty file', hint: 'Write the post text, or delete the file.' });
  }
  if (text.startsWith('---') && !/\n---/.test(text.slice(3))) {
    return failed({ severity: 'error', code: 'front-matter-unclosed', message: 'the front-matter is not closed', file, line: 1, column: 1, expected: 'a line `---` after the front-matter', found: 'no closing `---`', hint: 'Add a line with `---` between the front-matter and the post text.' });
  }

  let source: YamlSource | undefined;
  const yamlEngine = (matterText: string): object => {
    source = parseYamlSource(matterText, file);
    return (source.value ?? {}) as object;
  };
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(text, { engines: { yaml: yamlEngine, json: refuseLanguage, javascript: refuseLanguage, coffee: refuseLanguage } });
  } catch {
    return failed({ severity: 'error', code: 'front-matter-language', message: 'only YAML front-matter is supported', file, line: 1, column: 1, expected: 'a first line of exactly `---`', found: JSON.stringify(text.split('\n')[0]), hint: 'Start the file with a line `---`, then YAML, then `---`.' });
  }

  const diagnostics = [...(source?.diagnostics ?? [])];
  const hasFrontMatter = text.startsWith('---') && parsed.content !== text;
  if (!hasFrontMatter && /^\s*\n---\n/.test(text)) {
    diagnostics.push({ severity: 'warning', code: 'front-matter-not-first', message: 'the `---` block is not on the first line, so it is read as post text', file, line: lineOf(text, text.indexOf('---')), column: 1, hint: 'Remove the blank lines before the opening `---`.' });
  }
  const bodyStart = text.length - parsed.content.length;
  const leadingBlank = /^\s*/.exec(parsed.content)?.[0] ?? '';
  return {
    frontMatter: hasFrontMatter ? (source === undefined ? {} : source.value) : {},
    body: parsed.content,
    bodyLine: lineOf(text, bodyStart + leadingBlank.lastIndexOf('\n') + 1),
    locate: source?.locate ?? nowhere,
    diagnostics,
  };
}

function failed(diagnostic: Diagnostic): ParsedPostFile {
  return { frontMatter: undefined, body: '', bodyLine: 1, locate: nowhere, diagnostics: [diagnostic] };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++;
  return line;
}
