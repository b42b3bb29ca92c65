import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { CRASH, hostileWorld, type Json } from '../helpers/hostile-world.js';
/**
 * Accounts and their rules as the service answers them: fields of the wrong type stop `accounts`
 * and `plan` with an error naming the endpoint and the field.
 */

const world = hostileWorld();
const WRONG_ACCOUNT_TYPES: { name: string; field: RegExp; rewrite: (data: Json, path: string) => void }[] = [
  { name: 'an account that is null', field: /GET \/accounts: field `items\[0\]`/, rewrite: (data, path) => path === '/accounts' && (data.items = [null]) },
  { name: 'an account id that is a number', field: /GET \/accounts: field `items\[0\]\.id`/, rewrite: (data, path) => path === '/accounts' && (data.items[0].id = 5) },
  { name: 'an account handle that is a number', field: /GET \/accounts: field `items\[0\]\.handle`/, rewrite: (data, path) => path === '/accounts' && (data.items[0].handle = 5) },
  {
    name: 'a content type of the rules that is a number',
    field: /capabilities: field `rules\.media\.images\.contentTypes\[0\]`/,
    rewrite: (data, path) => path.endsWith('/capabilities') && (data.rules.media.images.contentTypes = [5]),
  },
  {
    name: 'a caption length limit that is a text',
    field: /capabilities: field `rules\.caption\.maxLength`/,
    rewrite: (data, path) => path.endsWith('/capabilities') && (data.rules.caption.maxLength = 'none'),
  },
];

describe('attack: accounts and their rules whose fields have the wrong type', () => {
  it.each(WRONG_ACCOUNT_TYPES)('$name: accounts and plan stop with an error naming the endpoint and the field (accounts: on the line of an account whose rules it cannot read)', async ({ field, rewrite }) => {
    const dir = await world.appliedProject();
    world.rewriteData = rewrite;
    for (const command of [['accounts'], ['plan']]) {
      const result = await runCli(command, { cwd: dir, env: world.env() });
      expect(result.stderr, command.join(' ')).not.toMatch(CRASH);
      if (command[0] === 'plan' && result.code === 0) continue; // a plan that needs no such field
      // One account's rules that cannot be read are that account's line; the others are listed.
      if (command[0] === 'accounts' && result.code === 0) {
        expect(result.stdout, command.join(' ')).toMatch(field);
        continue;
      }
      expect(result.code, `${command.join(' ')}\n${result.stderr}`).toBe(1);
      expect(result.stderr, command.join(' ')).toMatch(field);
    }
  }, 120_000);
});
