import { hash } from 'node:crypto';
import type { HouseRule } from '../config/house-rule-types.js';
import type { TemplateVars } from '../config/vars-section.js';
import { canonicalJson } from '../state/hash.js';
import { compareText } from '../text/ordering.js';
import type { SnippetUse } from './snippet-files.js';
import type { Origin, PostOrigins } from './types.js';

/** Far more sources than one post's texts use; a post with more is attributed through these only. */
export const MAX_SOURCES = 32;

export const FILE_SOURCE = 'file';
export const REPEAT_SOURCE = 'repeat';
export const snippetSource = (path: string) => `snippet:${path}`;
export const ruleSource = (name: string) => `rule:${name}`;

/** The source id of a template name a text used (`campaign.url`, `hashtags.coffee`); undefined for a built-in or a name with no value. */
export function nameSource(name: string, vars: TemplateVars, hashtags: Readonly<Record<string, string>>): string | undefined {
  const [first, ...rest] = name.split('.');
  if (first === 'hashtags' && rest.length === 1 && Object.hasOwn(hashtags, rest[0]!)) return `hashtags:${rest[0]}`;
  return typeof varValue(name, vars) === 'string' ? `var:${name}` : undefined;
}

/** The facts the digests are worked out from: everything a source id names. */
export interface OriginFacts {
  /** A digest of the post file's bytes. */
  file: string;
  snippets: readonly SnippetUse[];
  vars: TemplateVars;
  hashtags: Readonly<Record<string, string>>;
  rules: readonly HouseRule[];
  /** The post file's front-matter: its repeat rule is read from it. */
  frontMatter: Readonly<Record<string, unknown>>;
}

/** The origins of one post from the source ids of its fields: digests of every source named, bounded. */
export function postOrigins(fields: Readonly<Record<string, readonly string[]>>, facts: OriginFacts): PostOrigins {
  const named = new Set<string>();
  for (const ids of Object.values(fields)) for (const id of ids) if (id !== FILE_SOURCE) named.add(id);
  const kept = new Set([FILE_SOURCE, ...[...named].sort(compareText).slice(0, MAX_SOURCES - 1)]);
  const digests: Record<string, string> = {};
  for (const id of kept) digests[id] = digestOf(id, facts);
  const bounded: Record<string, string[]> = {};
  for (const field of Object.keys(fields).sort(compareText)) {
    const ids = [...new Set(fields[field])].filter((id) => kept.has(id)).sort(compareText);
    if (ids.length > 0 && !(ids.length === 1 && ids[0] === FILE_SOURCE)) bounded[field] = ids;
  }
  return { digests, fields: bounded };
}

/** The source ids of a field path (`targets[<id>].options.link` is one of `targets[<id>].options`); the post file when none are known. */
export function sourcesOfField(origins: PostOrigins, field: string): readonly string[] {
  const options = /^(targets\[[^\]]*\]\.options)\./.exec(field);
  return origins.fields[field] ?? (options === null ? undefined : origins.fields[options[1]!]) ?? [FILE_SOURCE];
}

/** The origin a source id names; `file` is the post file at `file`. */
export function originOf(id: string, file: string): Origin {
  if (id === FILE_SOURCE) return { kind: 'file', path: file };
  if (id === REPEAT_SOURCE) return { kind: 'repeat' };
  const colon = id.indexOf(':');
  const [kind, name] = [id.slice(0, colon), id.slice(colon + 1)];
  if (kind === 'snippet') return { kind: 'snippet', path: name };
  if (kind === 'var') return { kind: 'var', name };
  if (kind === 'hashtags') return { kind: 'hashtags', name };
  return { kind: 'house-rule', name, rewrite: 'utm' };
}

function digestOf(id: string, facts: OriginFacts): string {
  if (id === FILE_SOURCE) return shortDigest(facts.file);
  if (id === REPEAT_SOURCE) {
    const { scheduledAt, repeat, variants, occurrences } = facts.frontMatter;
    return shortDigest(canonicalJson({ scheduledAt, repeat, variants, occurrences }));
  }
  const colon = id.indexOf(':');
  const [kind, name] = [id.slice(0, colon), id.slice(colon + 1)];
  if (kind === 'snippet') return shortDigest(`${facts.snippets.find((use) => use.path === name)?.digest ?? null}`);
  if (kind === 'var') return shortDigest(`${varValue(name, facts.vars) ?? null}`);
  if (kind === 'hashtags') return shortDigest(`${facts.hashtags[name] ?? null}`);
  return shortDigest(canonicalJson(facts.rules.find((rule) => rule.name === name) ?? null));
}

function varValue(name: string, vars: TemplateVars): string | TemplateVars | undefined {
  let node: string | TemplateVars | undefined = vars;
  for (const part of name.split('.')) node = typeof node === 'object' && Object.hasOwn(node, part) ? node[part] : undefined;
  return node;
}

/** 96 bits of a source's sha256: enough to tell an edit, small enough to keep per post in the state. */
function shortDigest(text: string): string {
  return hash('sha256', text, 'base64url').slice(0, 16);
}
