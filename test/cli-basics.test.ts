import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const bin = new URL('../dist/cli/main.js', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('postsync CLI basics', () => {
  it('prints its version', () => {
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).trim()).toBe(pkg.version);
  });

  it('prints help naming the tool', () => {
    const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help).toContain('Usage: postsync');
  });

  // npm links the bin as it is: it must run by itself, as `npx postsync` runs it.
  it.skipIf(process.platform === 'win32')('is an executable script of its own', () => {
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toBe(pkg.version);
  });
});
