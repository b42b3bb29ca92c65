import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendStepOutputs, appendSummary } from '../../src/actions/outputs.js';
import { md } from '../../src/text/markdown.js';

async function linkedRunnerFile() {
  const dir = await mkdtemp(join(tmpdir(), 'postsync-runner-'));
  const elsewhere = join(dir, 'elsewhere.txt');
  await writeFile(elsewhere, 'untouched\n');
  const link = join(dir, 'output');
  await symlink(elsewhere, link);
  return { dir, elsewhere, link };
}

describe('the files the runner names (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY)', () => {
  it('are appended to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'postsync-runner-'));
    const output = join(dir, 'output');
    await writeFile(output, 'before\n');
    await appendStepOutputs({ outputFile: output }, { errors: 0 });
    await appendSummary({ summaryFile: output }, md`more`);
    const text = await readFile(output, 'utf8');
    expect(text).toMatch(/^before\nerrors<<postsync_[0-9a-f-]+\n0\npostsync_[0-9a-f-]+\nmore\n$/);
  });

  it('are never written through a symbolic link', async () => {
    const { elsewhere, link } = await linkedRunnerFile();
    await expect(appendStepOutputs({ outputFile: link }, { errors: 0 })).rejects.toThrow(/symbolic link/);
    await expect(appendSummary({ summaryFile: link }, md`# summary`)).rejects.toThrow(/symbolic link/);
    expect(await readFile(elsewhere, 'utf8')).toBe('untouched\n');
  });
});
