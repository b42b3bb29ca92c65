import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Capabilities } from '../../src/api/types.js';
import { checkAgainstCapabilities } from '../../src/content/capability-checks.js';
import { readContent } from '../../src/content/read-content.js';
import type { ContentConfig } from '../../src/content/read-file.js';
import { rulesFor } from '../../src/emulator/rules/platform-rules.js';
import { loadBadCases, projectFiles } from '../fixtures/bad/corpus.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia } from './fake-probe.js';

const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';
const SHORT = '8b3e4f50-2c77-4e7b-9f20-5dab7f3c9a03';
const VIDEO = '7a2d3e4f-1b66-4d6a-8e1f-4c9a6e2b8f02';
const NOW = new Date('2026-06-01T00:00:00Z');

function capabilities(id: string, platform: string): Capabilities {
  const none = { discover: [], draft: [], schedule: [], publish: [], upload: [] };
  return { account: { id, platform, status: 'active' }, supported: true, available: true, requiredPermissions: none, rules: rulesFor(platform) };
}

const ACCOUNTS = new Map([
  [PHOTO, capabilities(PHOTO, 'photoC')],
  [SHORT, capabilities(SHORT, 'shortB')],
  [VIDEO, capabilities(VIDEO, 'vidA')],
]);

const CONFIG: Omit<ContentConfig, 'root' | 'contentDir'> = { timezone: 'Europe/Berlin', accounts: { photo: PHOTO, short: SHORT, video: VIDEO } };

async function read(files: Record<string, string>) {
  const root = await testdir({ 'media/clip.mp4': 'video bytes', ...files });
  return readContent({ config: { ...CONFIG, root, contentDir: join(root, 'posts') }, now: NOW, media: fakeMedia() });
}

describe('every problem of a file in one run', () => {
  it('a wrong type in one target hides no account problem of another, each at its own key', async () => {
    const badCase = loadBadCases().find((one) => one.name === 'wrong-type-beside-foreign-option')!;
    const root = await testdir(projectFiles(badCase));
    const content = await readContent({ config: { ...CONFIG, root, contentDir: join(root, 'posts') }, now: NOW, media: fakeMedia() });
    expect(content.posts.map((post) => post.key)).toEqual(['valid']);
    const checks = checkAgainstCapabilities(content.checkOnly, ACCOUNTS);
    // The wrong type is reported once, by the schema: the account check does not see the value.
    expect([...content.diagnostics, ...checks].map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
      'posts/two-targets.md:4:33 wrong-type',
      'posts/two-targets.md:7:7 option-not-supported',
    ]);
  });

  it('a file whose media cannot be read is told so once, not also that it has too few', async () => {
    const content = await read({ 'posts/gone.md': '---\ntargets:\n  - account: photo\n    options: { vidATitle: A }\nmedia: [media/gone.png]\n---\nHi.' });
    const checks = checkAgainstCapabilities(content.checkOnly, ACCOUNTS);
    expect([...content.diagnostics, ...checks].map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['5:9 media-not-found', '4:16 option-not-supported']);
  });

  it('points each option problem at its key, a missing option at `options:`, else at the target', async () => {
    const content = await read({
      'posts/valid.md': [
        '---',
        'targets:',
        '  - account: photo',
        '    options:',
        '      format: reels',
        '      vidATitle: A title',
        '  - account: video',
        '    options: { vidATags: [a] }',
        '  - short',
        'media: [../media/clip.mp4]',
        '---',
        'Hello.',
      ].join('\n'),
      'posts/bare.md': '---\ntargets:\n  - video\nmedia: [../media/clip.mp4]\n---\nHi.',
    });
    expect(content.diagnostics).toEqual([]);
    const checks = checkAgainstCapabilities(content.posts, ACCOUNTS);
    expect(checks.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`).sort()).toEqual([
      'posts/bare.md:3:5 option-required',
      'posts/valid.md:5:7 option-value-not-allowed',
      'posts/valid.md:6:7 option-not-supported',
      'posts/valid.md:8:5 option-required',
    ]);
  });
});
