import { readFileSync } from 'node:fs';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { testdir } from '../helpers/testdir.js';

const media = (name: string) => readFileSync(new URL(`../../examples/media/${name}`, import.meta.url));

/** A small content repository: aliases for the demo accounts, real media the demo accepts. */
export function demoProject(posts: Record<string, string>): Promise<string> {
  return testdir({
    'postsync.yaml': [
      'timezone: Europe/Berlin',
      'accounts:',
      `  photo: ${DEMO_ACCOUNTS.photo}`,
      `  video: ${DEMO_ACCOUNTS.video}`,
      `  short: ${DEMO_ACCOUNTS.short}`,
      '',
    ].join('\n'),
    'media/cover.png': media('cover.png'),
    'media/teaser.mp4': media('teaser.mp4'),
    ...Object.fromEntries(Object.entries(posts).map(([path, text]) => [`posts/${path}`, text])),
  });
}

export function post(options: { body: string; targets?: string; media?: string; scheduledAt?: string }): string {
  const lines = ['---'];
  if (options.scheduledAt) lines.push(`scheduledAt: ${options.scheduledAt}`);
  lines.push(`targets: ${options.targets ?? '[photo]'}`);
  lines.push(`media: ${options.media ?? '[media/cover.png]'}`);
  lines.push('---', options.body, '');
  return lines.join('\n');
}
