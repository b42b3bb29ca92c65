import { isMap, isNode, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node, type YAMLError } from 'yaml';
import type { Diagnostic } from '../diagnostics.js';

/** 1-based line and column in a file. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Path to a value inside parsed YAML: mapping keys and sequence indexes. */
export type DataPath = readonly (string | number)[];

/**
 * A YAML text parsed with its source positions kept, so that any problem found later (by the
 * schema or by normalization) can point at the exact line and column of the value concerned.
 * Lines are those of the text given; callers pass text whose line 1 is the file's line 1.
 */
export interface YamlSource {
  /** The plain data (YAML 1.2 core schema: dates stay strings), or undefined when the text has errors. */
  value: unknown;
  /** Syntax errors and warnings, already as diagnostics. */
  diagnostics: Diagnostic[];
  /** Position of the value at `path` (of its key with `key: true`), else of its nearest ancestor. */
  locate(path: DataPath, options?: { key?: boolean }): SourcePosition | undefined;
}

/** Deep alias chains can blow up memory ("billion laughs"); no legitimate file needs many. */
const MAX_ALIAS_COUNT = 50;

/**
 * Where a person should look for a syntax error. For an unclosed quote or flow collection the
 * parser reports where it gave up (often the next line); the opening quote, `[` or `{` is where
 * the mistake is, so point there.
 */
function reportedOffset(doc: Document, error: YAMLError): number {
  const at = error.pos[0];
  const unclosed = error.code === 'MISSING_CHAR' ? 'scalar' : /^Flow sequence/.test(error.message) ? 'seq' : /^Flow map/.test(error.message) ? 'map' : null;
  if (unclosed === null) return at;
  let start: number | undefined;
  visit(doc, (_key, node) => {
    if (!isNode(node) || !node.range || node.range[0] > at) return;
    const fits =
      unclosed === 'scalar' ? isScalar(node) && at <= node.range[2] : (unclosed === 'seq' ? isSeq(node) : isMap(node)) && (node as { flow?: boolean }).flow === true;
    if (fits && (start === undefined || node.range[0] >= start)) start = node.range[0];
  });
  return start ?? at;
}

export function parseYamlSource(text: string, file: string): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, version: '1.2', schema: 'core', uniqueKeys: true });
  const position = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const toDiagnostic = (severity: Diagnostic['severity']) => (error: YAMLError): Diagnostic => ({
    severity,
    code: severity === 'error' ? 'yaml-syntax' : 'yaml-warning',
    message: firstLine(error.message),
    file,
    ...position(reportedOffset(doc, error)),
    hint: severity === 'error' ? yamlHint(error) : undefined,
  });
  const parserErrors = doc.errors.map(toDiagnostic('error'));
  const errors = doc.errors.some((error) => error.code === 'TAB_AS_INDENT') ? parserErrors : withTabNamed(text, parserErrors);
  const diagnostics = [...errors, ...doc.warnings.map(toDiagnostic('warning'))];
  let value: unknown;
  if (doc.errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      diagnostics.push({ severity: 'error', code: 'yaml-syntax', message: firstLine(String((error as Error).message)), file, line: 1, column: 1 });
    }
  }
  return {
    value,
    diagnostics,
    locate(path, options = {}) {
      const range = findRange(doc, path, options.key === true);
      return range === undefined ? undefined : position(range);
    },
  };
}

function findRange(doc: Document, path: DataPath, wantKey: boolean): number | undefined {
  let node: unknown = doc.contents;
  let best = rangeStart(node);
  for (const [index, segment] of path.entries()) {
    const isLast = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair === undefined) return best;
      const keyStart = rangeStart(pair.key);
      if (isLast && wantKey) return keyStart ?? best;
      node = pair.value;
      // An empty value (`key:`) has no node of its own: point at the key.
      best = rangeStart(node) ?? keyStart ?? best;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      best = rangeStart(node) ?? best;
    } else {
      return best;
    }
  }
  return best;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

function yamlHint(error: YAMLError): string | undefined {
  switch (error.code) {
    case 'DUPLICATE_KEY':
      return 'Each key may appear only once; remove or rename one of them.';
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
    case 'UNEXPECTED_TOKEN':
      return 'Check the indentation and quoting on this line; values with `:` or `#` need quotes.';
    case 'TAB_AS_INDENT':
      return 'Indent with spaces, not tabs.';
    default:
      return 'Fix the YAML syntax at this position.';
  }
}

/**
 * A tab after spaces in a line's indentation makes the parser report something else (items that
 * do not start at the same column, a nested mapping) on that line or the one before. The tab is
 * the mistake: one error at the tab in place of those, the other errors kept. (The parser's own
 * TAB_AS_INDENT error, when there is one, names the tab already.)
 */
function withTabNamed(text: string, errors: readonly Diagnostic[]): Diagnostic[] {
  if (errors.length === 0) return [];
  const near = (error: Diagnostic, line: number) => error.line === line || error.line === line - 1;
  const lines = text.split('\n');
  for (const [index, lineText] of lines.entries()) {
    const line = index + 1;
    const indent = /^( *)\t[ \t]*\S/.exec(lineText);
    if (indent === null || !errors.some((error) => near(error, line))) continue;
    const spaces = indent[1]!.length;
    const tab: Diagnostic = {
      severity: 'error',
      code: 'yaml-syntax',
      message: `a tab ${spaces === 0 ? '' : `after ${spaces} ${spaces === 1 ? 'space' : 'spaces'} `}in the indentation: YAML indents with spaces only`,
      file: errors[0]!.file,
      line,
      column: spaces + 1,
      expected: 'spaces only before the text of a line',
      found: 'a tab',
      hint: 'Indent with spaces, not tabs.',
    };
    return [tab, ...errors.filter((error) => !near(error, line))];
  }
  return [...errors];
}
