import { describe, expect, it } from 'vitest';
import { renderDrafts } from '../../cli/views/drafts.js';
import { colours } from '../../cli/views/style.js';
import type { DraftReadiness } from '../../src/pipeline/draft-readiness.js';

const style = colours(false);
const draft = (index: number, ready: boolean): DraftReadiness => ({ key: `d${index}`, file: `posts/d${String(index).padStart(3, '0')}.md`, ready, missing: ready ? [] : ['no account to post to'] });

describe('renderDrafts', () => {
  it('lists every draft when there is no limit', () => {
    const drafts = Array.from({ length: 30 }, (_, index) => draft(index, true));
    const text = String(renderDrafts(drafts, style));
    expect(text.split('\n')).toHaveLength(31);
    expect(text.split('\n')[0]).toBe('Drafts (30, all ready to schedule):');
  });

  it('within a limit, lists the drafts not ready first and says how many more there are', () => {
    const drafts = Array.from({ length: 8_500 }, (_, index) => draft(index, index % 1_000 !== 7));
    const lines = String(renderDrafts(drafts, style, { limit: 20 })).split('\n');
    expect(lines).toHaveLength(22);
    expect(lines[0]).toBe('Drafts (8500, 9 not ready to schedule):');
    expect(lines.slice(1, 10).every((line) => line.includes('not ready to schedule: no account to post to'))).toBe(true);
    expect(lines[1]).toContain('posts/d007.md');
    expect(lines[10]).toMatch(/posts\/d000.md +ready to schedule$/);
    expect(lines[21]).toBe('  … and 8480 more drafts (postsync validate lists them all)');
    expect(String(renderDrafts(drafts.slice(0, 20), style, { limit: 20 })).split('\n')).toHaveLength(21);
  });
});
