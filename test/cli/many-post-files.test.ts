import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POOLED_FILES_MIN } from '../../src/content/parse-pool.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { demoProject } from '../e2e/project.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();
/** Generous: it only catches a hung CLI (a worker left running would keep it alive). */
const TIMEOUT_MS = 240_000;

/** Files with problems of every stage: YAML, schema, media, templates, keys, a repeat. */
const PROBLEMS: Record<string, string> = {
  'a-broken-yaml.md': '---\ntargets: [photo\n---\nText\n',
  'b-unknown-key.md': '---\ntargets: [photo]\nmedia: [media/cover.png]\nsheduledAt: 2030-01-01 10:00\n---\nText\n',
  'c-missing-media.md': '---\ntargets: [photo]\nmedia:\n  - media/cover.png\n  - { path: media/nope.png, alt: Nothing }\n---\nText\n',
  'd-template.md': '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello {{ nobody }}\n',
  'e-same-id.md': '---\nid: twice\ntargets: []\n---\nOne\n',
  'f-same-id.md': '---\nid: twice\ntargets: []\n---\nTwo\n',
  'g-weekly.md': '---\nscheduledAt: 2030-01-08 10:00\nrepeat: { every: week, count: 3 }\ntargets:\n  - account: photo\n    options: { vidATitle: A title }\nmedia: [media/cover.png]\n---\nEvery week.\n',
  'h-empty.md': '',
};

async function validateJson(dir: string) {
  const result = await runCli(['--api-url', emulator().baseUrl, 'validate', '--json'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
  return { code: result.code, stderr: result.stderr, diagnostics: (JSON.parse(result.stdout) as { diagnostics: { file: string; code: string }[] }).diagnostics };
}

describe('many post files (parsed by worker threads)', () => {
  it('give the same problems, in the same order, as the same files among a few', async () => {
    const few = await validateJson(await demoProject(PROBLEMS));
    const many = Object.fromEntries(Array.from({ length: POOLED_FILES_MIN + 20 }, (_, index) => [`many/post-${String(index).padStart(4, '0')}.md`, `---\ntargets: []\n---\nPost ${index}\n`]));
    const lots = await validateJson(await demoProject({ ...PROBLEMS, ...many }));
    expect(few.code, few.stderr).toBe(1);
    expect(few.diagnostics.length).toBeGreaterThan(6);
    expect(lots.code, lots.stderr).toBe(few.code);
    const [ofMany, ofProblems] = [lots.diagnostics.filter((d) => d.file.startsWith('posts/many/')), lots.diagnostics.filter((d) => !d.file.startsWith('posts/many/'))];
    expect(ofProblems).toEqual(few.diagnostics);
    // Each of the many drafts is only not ready to schedule (no account yet).
    expect(new Set(ofMany.map((d) => d.code))).toEqual(new Set(['schedule-without-targets']));
  }, TIMEOUT_MS);

  it('has the worker entry beside the module that starts it in the bundled CLI', () => {
    const cli = new URL('../../dist/cli/', import.meta.url);
    const starters = readdirSync(cli).filter((name) => name.endsWith('.js') && readFileSync(new URL(name, cli), 'utf8').includes('"./parse-worker.js"'));
    expect(starters.length).toBeGreaterThan(0);
    expect(existsSync(new URL('parse-worker.js', cli))).toBe(true);
  });
});
