import postSchema from '../../schemas/post.schema.json' with { type: 'json' };
import { RESPONSE_ONLY_OPTION_FIELDS } from '../api/types.js';
import type { Diagnostic } from '../diagnostics.js';
import { validatePost } from '../generated/content-validators.js';
import { didYouMean } from '../text/did-you-mean.js';
import { schemaCheck } from '../text/schema-errors.js';
import type { YamlSource } from '../text/yaml-source.js';

const checkPostSchema = schemaCheck(validatePost);

/** Option field names a post may set, from the schema (the single list). */
export const OPTION_INPUT_FIELDS: readonly string[] = Object.keys(postSchema.$defs.options.properties);

/** Front-matter field names, from the schema. */
export const FRONT_MATTER_FIELDS: readonly string[] = Object.keys(postSchema.properties);

interface OptionSchema {
  type: string;
  items?: { type: string };
}

const optionSchemas: Readonly<Record<string, OptionSchema>> = postSchema.$defs.options.properties;

/**
 * True when `value` has the type the schema gives the option `field`. The schema reports any
 * other value, so the account checks must not see it: one problem, one diagnostic.
 */
export function fitsOptionSchema(field: string, value: unknown): boolean {
  const schema = Object.hasOwn(optionSchemas, field) ? optionSchemas[field] : undefined;
  if (schema === undefined) return false;
  if (schema.type !== 'array') return typeof value === schema.type;
  return Array.isArray(value) && value.every((item) => schema.items === undefined || typeof item === schema.items.type);
}

const responseOnly = new Set<string>(RESPONSE_ONLY_OPTION_FIELDS);

/**
 * Front-matter names other tools give a post's time (folded: lower case, no `-`, `_`). Told only
 * "remove this field", a writer removes it and the post silently becomes a draft.
 */
const TIME_FIELD_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  ['schedule', 'scheduled', 'scheduledfor', 'scheduledate', 'scheduletime', 'date', 'time', 'datetime', 'when', 'publish', 'publishat', 'publishon', 'publishdate', 'publishtime', 'publishedat', 'postat', 'postdate', 'posttime', 'at'].map((name) => [name, 'scheduledAt']),
);

/** The hint for an unknown top-level field that names a time: `scheduledAt`, and what its absence means. */
function timeFieldHint(name: string): string | undefined {
  const hint = didYouMean(name, [], TIME_FIELD_NAMES);
  return hint === undefined ? undefined : `${hint} Without \`scheduledAt\` the post is a draft.`;
}

/** Validates front-matter against schemas/post.schema.json; one positioned diagnostic per problem. */
export function checkFrontMatter(frontMatter: unknown, file: string, locate: YamlSource['locate']): Diagnostic[] {
  return checkPostSchema(frontMatter, {
    file,
    locate,
    unknownFieldHint: (name, path) => {
      if (path.length === 0) return timeFieldHint(name);
      return path[path.length - 1] === 'options' && responseOnly.has(name) ? `\`${name}\` is set by the service and cannot be sent; remove it.` : undefined;
    },
  });
}
