import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import * as formatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import type { Permission, TargetInput } from '../api/types.js';
import { InputError } from '../errors.js';
import { packageRoot } from './package-root.js';

/** What happens to a target on this account when its post is due. */
export type PublishBehavior = 'publish' | 'fail' | 'throttle';

export interface FixtureAccount {
  id: string;
  platform: string;
  handle: string;
  /** Default `active`. */
  status?: string;
  /** Default true; false makes capabilities answer `available: false` with `unavailableReason`. */
  available?: boolean;
  unavailableReason?: string;
  /** Default `publish`. */
  publishBehavior?: PublishBehavior;
}

export interface FixtureKey {
  token: string;
  permissions: Permission[];
  paused?: boolean;
  expiresAt?: string | null;
}

/** A seed post: a draft without scheduledAt, otherwise scheduled (published at once if already due). */
export interface FixturePost {
  id?: string;
  content: string;
  scheduledAt?: string | null;
  createdAt?: string;
  targets?: TargetInput[];
}

/**
 * Posts generated at start instead of listed one by one (a remote's long past): `posts` of them,
 * deterministic (same ids and fields on every start). See `historyPosts` for what each status gives.
 */
export interface FixtureHistory {
  posts: number;
  /** Default `published`. Any string: statuses the emulator never gives itself are kept as given. */
  status?: string;
  /** createdAt of the first post (default 2020-01-01T00:00:00Z); the next ones follow `everySeconds` apart. */
  createdFrom?: string;
  /** Default 600. */
  everySeconds?: number;
  /** `scheduled` only: scheduledAt of the first post (default 2035-01-01T00:00:00Z). */
  scheduledFrom?: string;
  /** Accounts the posts target, one each, in turn; default: every account of the project. */
  accounts?: string[];
  /** Text of post n: `<content> <n>`; default `History post`. */
  content?: string;
}

/** A project's request budget: `limit` requests per fixed window of `windowSeconds`, shared by its keys. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface FixtureProject {
  id: string;
  rateLimit?: RateLimit;
  keys: FixtureKey[];
  accounts?: FixtureAccount[];
  posts?: FixturePost[];
  /** One batch or several, generated before `posts`. */
  history?: FixtureHistory | FixtureHistory[];
}

/** The emulator's world: see schemas/fixture.schema.json. */
export interface Fixture {
  projects: FixtureProject[];
}

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin)) as FormatsPlugin;

let validator: ((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };

async function schemaValidator(): Promise<typeof validator> {
  if (!validator) {
    const schema = JSON.parse(await readFile(join(packageRoot(), 'schemas', 'fixture.schema.json'), 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(schema);
  }
  return validator;
}

/** Reads a YAML or JSON fixture file; `.json` files use the (much faster) JSON parser. */
export async function readFixtureFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read the fixture ${path}: ${(error as Error).message}`);
  }
  try {
    return (path.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as unknown;
  } catch (error) {
    throw new InputError(`the fixture ${path} is not valid ${path.toLowerCase().endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
}

/** Checks a fixture against the schema and for duplicate ids/tokens; reports every problem at once. */
export async function validateFixture(value: unknown, source = 'fixture'): Promise<Fixture> {
  const validate = await schemaValidator();
  const problems: string[] = [];
  if (!validate(value)) {
    for (const error of validate.errors ?? []) problems.push(`${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
  } else {
    const fixture = value as Fixture;
    const seen = { project: new Set<string>(), token: new Set<string>(), account: new Set<string>() };
    fixture.projects.forEach((project, p) => {
      if (seen.project.has(project.id)) problems.push(`/projects/${p}/id duplicate project id ${project.id}`);
      seen.project.add(project.id);
      project.keys.forEach((key, k) => {
        if (seen.token.has(key.token)) problems.push(`/projects/${p}/keys/${k}/token duplicate token`);
        seen.token.add(key.token);
      });
      (project.accounts ?? []).forEach((account, a) => {
        const id = account.id.toLowerCase();
        if (seen.account.has(id)) problems.push(`/projects/${p}/accounts/${a}/id duplicate account id ${account.id}`);
        seen.account.add(id);
      });
    });
  }
  if (problems.length > 0) {
    throw new InputError(`invalid ${source}:\n  ${problems.join('\n  ')}`, {
      hint: 'See schemas/fixture.schema.json for the fixture format.',
    });
  }
  return value as Fixture;
}

export async function loadFixture(fixture: Fixture | string): Promise<Fixture> {
  if (typeof fixture === 'string') return validateFixture(await readFixtureFile(fixture), `fixture ${fixture}`);
  return validateFixture(fixture);
}
