import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initProject } from '../../src/init/init-project.js';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const ACTION = '.github/actions/postsync';

describe('postsync init --check-action', () => {
  it('passes on a fresh init and fails on any edit of the copy, version markers included, naming each file', async () => {
    const dir = await testdir();
    await initProject({ dir, now: NOW, timezone: 'UTC' });
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const check = () => runCli(['init', '--check-action'], { cwd: dir });

    const fresh = await check();
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toBe(`${ACTION}/ is exactly postsync ${version}'s action (11 files, byte for byte).\n`);
    // The sums a reviewer can check without postsync.
    const sums = await readFile(join(dir, ACTION, 'SHA256SUMS'), 'utf8');
    expect(sums.split('\n').filter(Boolean).map((line) => line.slice(66)).sort()).toEqual([
      'README.md',
      'action.yml',
      'action/parse-worker.mjs',
      'action/postsync-code.mjs',
      'action/postsync-generated.mjs',
      'action/postsync.mjs',
      'action/rolldown-runtime.mjs',
      'action/third-party.mjs',
      'package.json',
      'schemas/fixture.schema.json',
    ]);
    // The README says which file is ours and which third-party, with each one's size.
    const readmeText = await readFile(join(dir, ACTION, 'README.md'), 'utf8');
    const ownSize = (await readFile(join(dir, ACTION, 'action/postsync-code.mjs'))).length;
    expect(readmeText).toContain(`| \`action/postsync-code.mjs\` | ${Math.round(ownSize / 1024).toLocaleString('en-US')} KiB | postsync's own code`);
    expect(readmeText).toMatch(/\| `action\/third-party\.mjs` \| [\d,]+ KiB \| .*\(third-party\) \|/);

    await appendFile(join(dir, ACTION, 'action/postsync.mjs'), '\n// one more line\n');
    await appendFile(join(dir, ACTION, 'action/third-party.mjs'), '\n// one more line\n');
    const manifest = join(dir, ACTION, 'package.json');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace(`"version": "${version}"`, '"version": "9.9.9"'));
    const readme = join(dir, ACTION, 'README.md');
    await writeFile(readme, (await readFile(readme, 'utf8')).replace(`postsync ${version}`, 'postsync 9.9.9'));
    await writeFile(join(dir, ACTION, 'action/extra.mjs'), 'export {};\n');
    const edited = await check();
    expect(edited.code).toBe(1);
    expect(edited.stdout).toBe(
      [
        `${ACTION}/ is not postsync ${version}'s action:`,
        `  changed  ${ACTION}/README.md`,
        `  changed  ${ACTION}/action/postsync.mjs`,
        `  changed  ${ACTION}/action/third-party.mjs`,
        `  changed  ${ACTION}/package.json`,
        `  extra    ${ACTION}/action/extra.mjs`,
        '',
        "Review what changed (git diff), then run `postsync init --update-action` to restore this version's copy.",
        '',
      ].join('\n'),
    );

    expect((await runCli(['init', '--update-action'], { cwd: dir })).code).toBe(0);
    expect((await check()).code).toBe(0);
  });
});
