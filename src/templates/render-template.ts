import type { Diagnostic } from '../diagnostics.js';
import { closestMatch } from '../text/did-you-mean.js';
import { templateNames, type TemplateVars } from '../config/vars-section.js';
import { MISSING_BUILT_IN, type BuiltIns } from './built-ins.js';
import { refusalProblem, refusedByName, snippetPath, type SnippetRefusal } from './snippet-paths.js';
import { scanTemplate, type TemplatePart } from './template-tokens.js';
import { fixedTextLocator, verbatimTextLocator, type TextLocator } from './text-locator.js';

/**
 * Limits of one rendered text, far beyond what a team writes: without them a few kilobytes of
 * snippets that each include the next many times expand exponentially and stall the run.
 * Snippets may include snippets up to this depth (a deeper chain is almost surely a mistake)...
 */
const MAX_SNIPPET_DEPTH = 8;
/** ...this many includes in all... */
const MAX_INCLUDES = 1000;
/** ...and the text may grow to this many characters (a post's text is limited to far fewer anyway). */
const MAX_RENDERED_LENGTH = 1024 * 1024;

export interface TemplateContext {
  /** Project-relative file the text is in, for messages. */
  file: string;
  vars: TemplateVars;
  hashtags: Readonly<Record<string, string>>;
  builtIns: BuiltIns;
  /** Why a built-in has no value here, where the usual reason (MISSING_BUILT_IN) does not fit. */
  missing?: Partial<Record<keyof BuiltIns, string>>;
  /**
   * Project-relative folder (forward slashes, no trailing one) that every `{{> path }}` must name
   * a file in; absent where a text cannot include snippets (a house rule's UTM values).
   */
  snippetsFolder?: string;
  /**
   * A snippet's text by its project-relative path (already checked by name: inside the snippets
   * folder, not hidden); undefined when there is no such file. The reader refuses what the name
   * cannot tell: a symlink that leads outside the folder, a git-ignored file.
   */
  readSnippet?: (path: string) => string | SnippetRefusal | undefined;
  /** Where an offset of the text is in `file`; default: nowhere. */
  locate?: TextLocator;
}

export interface RenderedText {
  text: string;
  /** Errors: unknown or valueless variables, malformed placeholders, bad or missing snippets, cycles. */
  diagnostics: Diagnostic[];
  /** The variable names used, each once (`account.*` among them: the text differs per account). */
  names: string[];
  /** The snippet files included, directly or not, each once: the text changes when one of them does. */
  snippets: string[];
  /** The offset in the source text that produced `text[offset]` (an inserted value: its `{{`). */
  sourceOffset(offset: number): number;
}

interface Segment {
  out: number;
  source: number;
  literal: boolean;
}

/** Renders `{{ name }}`, `{{> snippet }}` and `\{{`; never throws. A placeholder with an error is kept as written. */
export function renderTemplate(text: string, context: TemplateContext): RenderedText {
  const names = new Set<string>();
  const snippets = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const rendered = renderWithin(scanTemplate(text), context, { names, snippets, diagnostics, chain: [], spent: { includes: 0, length: 0 }, scanned: new Map() });
  return { text: rendered.text, diagnostics, names: [...names], snippets: [...snippets], sourceOffset: offsetMap(rendered.segments) };
}

interface Walk {
  names: Set<string>;
  snippets: Set<string>;
  diagnostics: Diagnostic[];
  /** Snippets being rendered, outermost first: a cycle is a path already on it. */
  chain: string[];
  /** Includes and characters of the whole text so far, and the limit it passed: rendering stops there. */
  spent: { includes: number; length: number; over?: Omit<Problem, 'found'> };
  /** Each snippet file scanned once per text, however often it is included. */
  scanned: Map<string, ScannedSnippet>;
}

interface ScannedSnippet {
  parts: TemplatePart[];
  locate: TextLocator;
}

function renderWithin(parts: readonly TemplatePart[], context: TemplateContext, walk: Walk): { text: string; segments: Segment[] } {
  const locate = context.locate ?? fixedTextLocator(undefined);
  const report = (part: TemplatePart, problem: Omit<Diagnostic, 'severity' | 'file' | 'line' | 'column'>) =>
    walk.diagnostics.push({ severity: 'error', ...problem, file: context.file, ...locate(part.offset) });
  let out = '';
  const segments: Segment[] = [];
  const { spent } = walk;
  const place = (value: string, source: number, literal: boolean) => {
    segments.push({ out: out.length, source, literal });
    out += value;
  };
  // Every character of the result is emitted once, as a literal or a value at some depth (an
  // included snippet's text is made of those, so it is placed without counting it again).
  const emit = (value: string, source: number, literal: boolean) => {
    place(value, source, literal);
    spent.length += value.length;
    if (spent.length > MAX_RENDERED_LENGTH) spent.over ??= { code: 'template-too-large', message: `the text is longer than ${MAX_RENDERED_LENGTH} characters once its snippets and vars are filled in`, hint: 'Shorten the snippets or vars it includes.' };
  };
  for (const part of parts) {
    renderPart(part);
    if (spent.over !== undefined) {
      // Reported once, at the place in the text itself that led past the limit.
      if (walk.chain.length === 0) report(part, { ...spent.over, ...('raw' in part ? { found: `\`${part.raw}\`` } : {}) });
      break;
    }
  }
  return { text: out, segments };

  function renderPart(part: TemplatePart): void {
    if (part.kind === 'text') emit(part.text, part.offset, true);
    else if (part.kind === 'malformed') {
      report(part, {
        code: 'template-malformed',
        message: part.unclosed ? `\`${part.raw}\` is not closed with \`}}\`` : `\`${part.raw}\` is not a variable or a snippet`,
        expected: '`{{ name }}` (such as `{{ campaign.url }}`) or `{{> snippets/file.md }}`, on one line',
        found: `\`${part.raw}\``,
        hint: 'Write `\\{{` for literal braces.',
      });
      emit(part.raw, part.offset, true);
    } else if (part.kind === 'variable') {
      walk.names.add(part.name);
      const value = valueOf(part.name, context);
      if (typeof value === 'string') emit(value, part.offset, false);
      else {
        report(part, value);
        emit(part.raw, part.offset, true);
      }
    } else {
      const included = includeSnippet(part, context, walk);
      if (typeof included === 'string') place(included, part.offset, false);
      else {
        report(part, included);
        emit(part.raw, part.offset, true);
      }
    }
  }
}

type Problem = Omit<Diagnostic, 'severity' | 'file' | 'line' | 'column'>;

function valueOf(name: string, context: TemplateContext): string | Problem {
  if (Object.hasOwn(MISSING_BUILT_IN, name)) {
    const value = context.builtIns[name as keyof BuiltIns];
    // Without an account at all, that is the reason for every `account.*` name.
    const why = context.missing?.[name as keyof BuiltIns] ?? (name.startsWith('account.') && context.builtIns['account.alias'] === undefined ? MISSING_BUILT_IN['account.alias'] : MISSING_BUILT_IN[name as keyof BuiltIns]);
    return value ?? { code: 'variable-without-value', message: `\`{{ ${name} }}\` has no value here: ${why}`, found: `\`{{ ${name} }}\``, hint: name === 'date' ? 'Set `scheduledAt`, or write the date.' : 'Write the value instead.' };
  }
  const [first, ...rest] = name.split('.');
  if (first === 'hashtags' && rest.length === 1 && Object.hasOwn(context.hashtags, rest[0]!)) return context.hashtags[rest[0]!]!;
  let node: string | TemplateVars | undefined = first === 'hashtags' ? undefined : context.vars;
  for (const part of name.split('.')) node = typeof node === 'object' && Object.hasOwn(node, part) ? node[part] : undefined;
  if (typeof node === 'string') return node;
  const known = templateNames(context.vars, context.hashtags);
  if (node !== undefined) {
    const inside = known.filter((candidate) => candidate.startsWith(`${name}.`));
    return { code: 'variable-is-group', message: `\`{{ ${name} }}\` is a group of vars, not a value`, expected: `one of ${inside.map((n) => `\`{{ ${n} }}\``).join(', ')}`, found: `\`{{ ${name} }}\``, hint: `Name one of its vars, e.g. \`{{ ${inside[0]} }}\`.` };
  }
  const match = closestMatch(name, known);
  return {
    code: 'unknown-variable',
    message: `unknown variable \`{{ ${name} }}\``,
    expected: 'a var from `vars:` or `hashtags:` in postsync.yaml, or a built-in (`file.dir`, `file.name`, `key`, `date`, `account.handle`, …)',
    found: `\`{{ ${name} }}\``,
    hint: match === undefined ? `Add \`${name}\` under \`vars:\` in postsync.yaml, or write \`\\{{\` for literal braces.` : `did you mean \`{{ ${match} }}\`?`,
  };
}

function includeSnippet(part: Extract<TemplatePart, { kind: 'snippet' }>, context: TemplateContext, walk: Walk): string | Problem {
  // Every include counts, refused ones too: each costs work and may add a diagnostic.
  if (++walk.spent.includes > MAX_INCLUDES) {
    walk.spent.over ??= { code: 'snippet-too-many', message: `the text includes more than ${MAX_INCLUDES} snippets`, hint: 'Snippets that include other snippets many times multiply: include fewer.' };
    return '';
  }
  const path = snippetPath(part.path);
  const found = `\`${part.raw}\``;
  const folder = context.snippetsFolder;
  if (folder === undefined) return { code: 'snippet-not-allowed', message: `\`${part.raw}\` cannot be used here: this text cannot include snippets`, found, hint: 'Write the text itself.' };
  if (path === undefined) return { code: 'snippet-outside-project', message: `snippet \`${part.path}\` is not a path inside the project`, expected: `a path from the project root, such as \`${folder}/signature.md\``, found, hint: 'Write the path from the folder holding postsync.yaml, without `..` or a leading `/`.' };
  const byName = refusedByName(path, folder);
  if (byName !== undefined) return refusalProblem(path, byName, { folder, found });
  if (walk.chain.includes(path)) {
    const cycle = [...walk.chain.slice(walk.chain.indexOf(path)), path];
    return { code: 'snippet-cycle', message: `snippet \`${path}\` includes itself: ${cycle.map((p) => `\`${p}\``).join(' → ')}`, found, hint: 'Remove one of these includes.' };
  }
  if (walk.chain.length >= MAX_SNIPPET_DEPTH) return { code: 'snippet-too-deep', message: `snippets include each other more than ${MAX_SNIPPET_DEPTH} deep`, found, hint: 'Include fewer snippets inside snippets.' };
  walk.snippets.add(path);
  const snippet = scannedSnippet(path, context, walk);
  if (snippet === undefined) return { code: 'snippet-not-found', message: `snippet \`${path}\` does not exist`, expected: `a file inside the snippets folder \`${folder}/\``, found, hint: 'Check the path: it starts at the folder holding postsync.yaml.' };
  if ('code' in snippet) return refusalProblem(path, snippet, { folder, found });
  const inner = { ...context, file: path, locate: snippet.locate };
  return renderWithin(snippet.parts, inner, { ...walk, chain: [...walk.chain, path] }).text;
}

/** A snippet file's parts and locator, read and scanned the first time the text includes it. */
function scannedSnippet(path: string, context: TemplateContext, walk: Walk): ScannedSnippet | SnippetRefusal | undefined {
  const known = walk.scanned.get(path);
  if (known !== undefined) return known;
  const text = context.readSnippet?.(path);
  if (typeof text !== 'string') return text;
  // The file's last line break is not part of the text it stands for.
  const body = text.replace(/\r?\n$/, '');
  const scanned = { parts: scanTemplate(body), locate: verbatimTextLocator(body, { line: 1, column: 1 }) };
  walk.scanned.set(path, scanned);
  return scanned;
}

function offsetMap(segments: readonly Segment[]): (offset: number) => number {
  return (offset) => {
    let low = 0;
    let high = segments.length - 1;
    if (high < 0) return 0;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (segments[middle]!.out <= offset) low = middle;
      else high = middle - 1;
    }
    const segment = segments[low]!;
    return segment.literal ? segment.source + Math.max(0, offset - segment.out) : segment.source;
  };
}
