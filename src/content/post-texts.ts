import type { TemplateVars } from '../config/vars-section.js';
import type { Diagnostic } from '../diagnostics.js';
import type { AccountFacts } from '../house-rules/index.js';
import { builtInValues, fixedTextLocator, holdsTemplate, renderTemplate, renderValues, type BuiltIns, type TemplateContext, type TextLocator } from '../templates/index.js';
import type { DataPath, YamlSource } from '../text/yaml-source.js';
import type { TargetShape } from './types.js';

/** Everything the templates of one post file may use besides the post itself. */
export interface TextContext {
  /** Project-relative path of the post file. */
  file: string;
  /** Path of the file under the content folder (`{{ file.dir }}`, `{{ file.name }}`). */
  fileInContent: string;
  timezone: string;
  vars: TemplateVars;
  hashtags: Readonly<Record<string, string>>;
  /** Platform and handle of the project's accounts, by id, as the API tells them; null: not read (yet). */
  accounts: ReadonlyMap<string, AccountFacts> | null;
  /** Project-relative snippets folder, forward slashes: `{{> path }}` names a file in it. */
  snippetsFolder: string;
  readSnippet: TemplateContext['readSnippet'];
  locate: YamlSource['locate'];
}

/** One post as its file writes it, before templates are rendered: the text and the time of a whole file or of an occurrence. */
export interface UnrenderedPost {
  key: string;
  /** An instant, or null for a draft and for a post whose time comes from a slot. */
  scheduledAt: string | null;
  /** True when the time comes from a slot: `{{ date }}` has no value yet. */
  slotted: boolean;
  /** The text as written (trimmed), and where each offset of it is in the file. */
  text: string;
  locate: TextLocator;
  /** Sorted by account id, as normalized (contentOverride and options still as written). */
  targets: readonly TargetShape[];
  labels: readonly string[];
  /** Index of each target's entry under `targets:`. */
  entries: readonly number[];
}

/** A target's text and options rendered, and whether the text is its own (`content:`) or the post's. */
export interface RenderedTarget {
  text: string;
  locate: TextLocator;
  own: boolean;
  options: TargetShape['options'];
  /** What its text and its options took from outside the text (`PostOrigins`). */
  uses: { text: TextUses; options: TextUses };
}

/** The template names and snippet files a rendered text used. */
export interface TextUses {
  names: readonly string[];
  snippets: readonly string[];
}

const NO_USES: TextUses = { names: [], snippets: [] };

export interface RenderedPost {
  /** The post's text with no account's values: the body as rendered (for the first target when it names `account.*`). */
  content: string;
  targets: RenderedTarget[];
  diagnostics: Diagnostic[];
  /** The template names used anywhere in the post. */
  names: string[];
  /** What `content` took from outside the text. */
  contentUses: TextUses;
}

const SLOT_DATE = 'the time of a `next-slot` post is chosen only when planning';

/**
 * Renders a post's templates: the text once, or once per account when it names `account.*`; each
 * target's own `content:` and its options per account. Texts without `{{` are taken as they are.
 */
export function renderPost(source: UnrenderedPost, context: TextContext): RenderedPost {
  const diagnostics: Diagnostic[] = [];
  const names = new Set<string>();
  const builtIns = (account?: { alias: string; accountId: string }) =>
    builtInValues({
      key: source.key,
      fileInContent: context.fileInContent,
      scheduledAt: source.scheduledAt,
      timezone: context.timezone,
      ...(account === undefined ? {} : { account: { alias: account.alias, ...context.accounts?.get(account.accountId) } }),
    });
  // The built-ins are worked out only for a text that holds a template (a date in the project's zone is dear).
  const render = (text: string, locate: TextLocator, values: () => BuiltIns) => {
    if (!text.includes('{{')) return { text, locate, names: [] as string[], snippets: [] as string[], diagnostics: [] as Diagnostic[] };
    const rendered = renderTemplate(text, { ...templateBase(context, source), builtIns: values(), locate });
    for (const name of rendered.names) names.add(name);
    return { text: rendered.text, locate: (offset: number) => locate(rendered.sourceOffset(offset)), names: rendered.names, snippets: rendered.snippets, diagnostics: rendered.diagnostics };
  };
  const shared = render(source.text, source.locate, () => builtIns());
  const perAccount = shared.names.some((name) => name.startsWith('account.'));
  if (!perAccount || source.targets.length === 0) diagnostics.push(...shared.diagnostics);
  const targets = source.targets.map((target, index): RenderedTarget => {
    let accountBuiltIns: BuiltIns | undefined;
    const values = () => (accountBuiltIns ??= builtIns({ alias: source.labels[index] ?? target.socialAccountId, accountId: target.socialAccountId }));
    const entry = source.entries[index] ?? index;
    const inFile = (path: DataPath) => context.locate(['targets', entry, ...path]);
    const options = !holdsTemplate(target.options) ? { value: target.options, diagnostics: [], ...NO_USES } : renderValues(target.options, { ...templateBase(context, source), builtIns: values() }, (path) => inFile(['options', ...path]));
    diagnostics.push(...options.diagnostics);
    for (const name of options.names) names.add(name);
    let text: ReturnType<typeof render> = shared;
    if (target.contentOverride !== undefined) text = render(target.contentOverride, fixedTextLocator(inFile(['content'])), values);
    else if (perAccount) text = render(source.text, source.locate, values);
    if (text !== shared) diagnostics.push(...text.diagnostics);
    const uses = { text: { names: text.names, snippets: text.snippets }, options: { names: options.names, snippets: options.snippets } };
    return { text: text.text, locate: text.locate, own: target.contentOverride !== undefined, options: options.value, uses };
  });
  // Per account, the shared text is one account's: the first that takes the body (or the first at all).
  const first = source.targets.findIndex((target) => target.contentOverride === undefined);
  const taken = !perAccount || targets.length === 0 ? undefined : targets[first === -1 ? 0 : first]!;
  const content = taken?.text ?? shared.text;
  return { content, targets, diagnostics, names: [...names], contentUses: taken?.uses.text ?? { names: shared.names, snippets: shared.snippets } };
}

function templateBase(context: TextContext, source: UnrenderedPost) {
  return { file: context.file, vars: context.vars, hashtags: context.hashtags, snippetsFolder: context.snippetsFolder, readSnippet: context.readSnippet, ...(source.slotted ? { missing: { date: SLOT_DATE } } : {}) };
}
