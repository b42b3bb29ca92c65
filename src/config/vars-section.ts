import { isRecord, reportAt, type SectionContext } from './section-context.js';

/**
 * `vars:` of postsync.yaml: named texts for `{{ name }}` in post bodies and options, nested by
 * groups (`{{ campaign.url }}`). Leaves are texts (numbers and booleans written in YAML are kept
 * as their text). Names never contain a dot and never shadow a built-in (BUILT_IN_ROOTS).
 */
export interface TemplateVars {
  readonly [name: string]: string | TemplateVars;
}

/** The values postsync fills in itself, as `{{ file.dir }}` etc. (see src/templates/built-ins.ts). */
export const BUILT_IN_NAMES = ['file.dir', 'file.name', 'key', 'date', 'account.alias', 'account.handle', 'account.platform'] as const;

/** First parts of built-in names, and `hashtags`: a var of that name would hide them. */
const BUILT_IN_ROOTS = new Set([...BUILT_IN_NAMES.map((name) => name.split('.')[0]!), 'hashtags']);

/** Every name a template may use: the built-ins, each var leaf (`campaign.url`) and `hashtags.<set>`. */
export function templateNames(vars: TemplateVars, hashtags: Readonly<Record<string, string>>): string[] {
  const names: string[] = [...BUILT_IN_NAMES];
  const walk = (tree: TemplateVars, prefix: string) => {
    for (const [name, value] of Object.entries(tree)) {
      if (typeof value === 'string') names.push(`${prefix}${name}`);
      else walk(value, `${prefix}${name}.`);
    }
  };
  walk(vars, '');
  names.push(...Object.keys(hashtags).map((name) => `hashtags.${name}`));
  return names;
}

/** `vars:` → a tree of texts; reports a var named like a built-in. */
export function readVarsSection(raw: unknown, context: SectionContext): TemplateVars {
  if (!isRecord(raw)) return {};
  for (const name of Object.keys(raw)) {
    if (!BUILT_IN_ROOTS.has(name)) continue;
    reportAt(context, ['vars', name], {
      code: 'var-shadows-built-in',
      atKey: true,
      message: `\`vars.${name}\` has the name of a built-in`,
      expected: `a name other than ${[...BUILT_IN_ROOTS].map((root) => `\`${root}\``).join(', ')}`,
      found: `\`${name}\``,
      hint: `postsync fills in \`{{ ${name}… }}\` itself; rename this group, e.g. \`my-${name}\`.`,
    });
  }
  return varsTree(raw, (name) => !BUILT_IN_ROOTS.has(name));
}

function varsTree(raw: Record<string, unknown>, keep: (name: string) => boolean): TemplateVars {
  const tree: Record<string, string | TemplateVars> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!keep(name)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') tree[name] = String(value);
    else if (isRecord(value)) tree[name] = varsTree(value, () => true);
  }
  return tree;
}

/**
 * `hashtags:` → set name → the tags as one text (`#coffee #roastery`). A set is a text or a list;
 * each tag must start with `#` and hold no space.
 */
export function readHashtagsSection(raw: unknown, context: SectionContext): Record<string, string> {
  if (!isRecord(raw)) return {};
  const sets: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const entries = typeof value === 'string' ? [{ text: value, path: ['hashtags', name] }] : Array.isArray(value) ? value.flatMap((text, index) => (typeof text === 'string' ? [{ text, path: ['hashtags', name, index] }] : [])) : [];
    const tags: string[] = [];
    for (const { text, path } of entries) {
      for (const tag of text.trim().split(/\s+/).filter(Boolean)) {
        if (/^#[^\s#]+$/u.test(tag)) tags.push(tag);
        else reportAt(context, path, { code: 'invalid-hashtag', message: `\`${tag}\` in hashtag set \`${name}\` is not a hashtag`, expected: 'tags such as `#coffee`, separated by spaces', found: `\`${tag}\``, hint: tag.startsWith('#') ? 'A tag is one `#` and a word.' : `Write \`#${tag.replace(/^#*/, '')}\`.` });
      }
    }
    sets[name] = tags.join(' ');
  }
  return sets;
}
