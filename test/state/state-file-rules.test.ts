import type { ErrorObject } from 'ajv';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, StateError } from '../../src/errors.js';
import { canonicalJson, prettyCanonicalJson } from '../../src/state/hash.js';
import { describeSchemaErrors } from '../../src/text/schema-errors.js';
import { StateFileText } from '../../src/state/state-text.js';
import { emptyProjectState, normalizeApiUrl, readState, readStateSection, stateSectionHash } from '../../src/state/state-file.js';
import type { PostRecord, StateFile } from '../../src/state/types.js';
import { testdir } from '../helpers/testdir.js';

const at = '2026-01-01T00:00:00.000Z';
const postRecord = (file: string): PostRecord => ({ postId: '0b5f7c1e-8f43-4e2c-9a41-7c1d2e3f4a5b', file, appliedHash: 'a'.repeat(64), remoteUpdatedAt: at, appliedAt: at });
const target = { id: 'local:demo', apiUrl: 'http://127.0.0.1:1/public/v1', projectId: 'demo' };

function stateWith(posts: Record<string, PostRecord>): StateFile {
  return { version: 1, targets: { [target.id]: { ...emptyProjectState(target), posts } } };
}

async function stateError(text: string): Promise<StateError> {
  const path = join(await testdir({ 'state.json': text }), 'state.json');
  const error = await readState(path).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(StateError);
  return error as StateError;
}

describe('canonical JSON', () => {
  it('refuses what has no JSON form, saying what it was', () => {
    expect(() => canonicalJson(undefined)).toThrow(new TypeError('cannot serialize undefined as JSON'));
    expect(() => prettyCanonicalJson(() => 1)).toThrow(new TypeError('cannot serialize function as JSON'));
  });
});

describe('describeSchemaErrors', () => {
  const error = (instancePath: string, message: string | undefined, extra: Partial<ErrorObject> = {}): ErrorObject =>
    ({ instancePath, schemaPath: '#', keyword: 'required', params: {}, message, ...extra }) as ErrorObject;

  it('writes one line per problem: where (the top level named), what, and an unexpected property by name', () => {
    expect(describeSchemaErrors([
      error('', "must have required property 'version'"),
      error('/targets/x', 'must NOT have additional properties', { keyword: 'additionalProperties', params: { additionalProperty: 'extra' } }),
      error('/targets/x/posts', undefined),
      error('/targets/x/posts', undefined),
    ])).toEqual([
      "(top level): must have required property 'version'",
      "/targets/x: must NOT have additional properties ('extra')",
      '/targets/x/posts: is invalid',
    ]);
    expect(describeSchemaErrors(null)).toEqual([]);
    expect(describeSchemaErrors(undefined)).toEqual([]);
  });

  it('lists at most `limit` problems, then says how many more', () => {
    const many = Array.from({ length: 12 }, (_, i) => error(`/p${i}`, 'is wrong'));
    expect(describeSchemaErrors(many)).toEqual([...many.slice(0, 10).map((e) => `${e.instancePath}: is wrong`), '… and 2 more']);
    expect(describeSchemaErrors(many.slice(0, 10))).toHaveLength(10);
    expect(describeSchemaErrors(many.slice(0, 3), 2)).toEqual(['/p0: is wrong', '/p1: is wrong', '… and 1 more']);
  });
});

describe('readState: what it refuses, and what it says to do', () => {
  it('says how to restore the file, naming it', async () => {
    const path = join(await testdir({ 'state.json': '{' }), 'state.json');
    const error = (await readState(path).catch((caught: unknown) => caught)) as StateError;
    expect(error.hint).toBe(`Fix it by hand or restore it from git (\`git checkout -- ${path}\`); postsync did not change it.`);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it("takes only git's seven-character markers at the start of a line for a merge conflict", async () => {
    expect((await stateError('> not a marker\n')).message).toMatch(/is not valid JSON/);
    expect((await stateError('< not a marker\n')).message).toMatch(/is not valid JSON/);
    expect((await stateError('<<<< short\n')).message).toMatch(/is not valid JSON/);
    expect((await stateError('{\n>>>>>>> theirs\n}\n')).message).toMatch(/unresolved git merge conflict markers/);
    expect((await stateError('{ "a": "x <<<<<<< y"\n')).message).toMatch(/is not valid JSON/);
    const path = join(await testdir({ 'state.json': JSON.stringify(stateWith({ a: postRecord('posts/x <<<<<<< y.md') }), null, 2) }), 'state.json');
    expect(Object.keys((await readState(path)).targets[target.id]!.posts)).toEqual(['a']);
  });

  it('says to upgrade for a newer version, and lists schema problems one per line', async () => {
    expect((await stateError(JSON.stringify({ version: 3, targets: {} }))).hint).toBe('Upgrade postsync to the version that wrote this state.');
    const message = (await stateError(JSON.stringify({ version: 1 }))).message;
    expect(message).toMatch(/is not a valid postsync state:\n {2}\(top level\): must have required property 'targets'$/);
    expect((await stateError(JSON.stringify({ version: 1, targets: {}, a: 1, b: 2 }))).message).toMatch(/\('a'\)\n {2}\(top level\): .*\('b'\)$/);
  });

  it('names an unreadable path and its cause', async () => {
    const dir = await testdir();
    const error = (await readState(dir).catch((caught: unknown) => caught)) as StateError;
    expect(error.message).toMatch(new RegExp(`^cannot read the state file ${dir}: EISDIR`));
    expect(error.hint).toBe('Check that the path is a readable file.');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('EISDIR');
  });
});

describe('normalizeApiUrl', () => {
  it('accepts a URL pasted with surrounding white space of any kind', () => {
    expect(normalizeApiUrl('\u00a0 https://api.example.com/v1/ \u2003')).toBe('https://api.example.com/v1');
  });

  it('refuses what is not a URL, saying what it should look like', () => {
    const error = (() => {
      try {
        normalizeApiUrl('api.example.com');
      } catch (caught) {
        return caught as InputError;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error!.message).toBe('API URL "api.example.com" is not a valid URL');
    expect(error!.hint).toBe('Use an absolute URL such as https://api.example.com/public/v1.');
  });
});

describe('StateFileText', () => {
  it('renders a record object under the key it has now, after it moved to another key', () => {
    const renderer = new StateFileText();
    const moving = postRecord('posts/a.md');
    renderer.render(stateWith({ a: moving }));
    const moved = stateWith({ b: moving });
    expect(renderer.render(moved)).toBe(prettyCanonicalJson(moved));
  });

  it('keeps values that look like a placeholder, and `$` patterns, as they are', () => {
    const file: StateFile = { version: 1, targets: { [target.id]: { ...emptyProjectState({ apiUrl: '0', projectId: '1' }), posts: { "$&$'$`": postRecord("$'.md") } } } };
    expect(new StateFileText().render(file)).toBe(prettyCanonicalJson(file));
  });
});
