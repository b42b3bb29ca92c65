import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, proseOf, readDoc, REPO_ROOT } from './doc-files.js';

/**
 * Pages other issues add at the same time as these docs: linked already, checked once they exist.
 * Remove an entry when its page has landed.
 */
const LANDING_ELSEWHERE = new Set(['docs/calendar-editing.md', 'bench/README.md#ledger']);

/** GitHub's heading ids: lower case, punctuation dropped (but `-` and `_`), spaces as `-`, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of proseOf(markdown, { keepCode: true }).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = match[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

/** Every link and image target of a page's prose: `[text](target)`, `![alt](target)`. */
function linkTargets(markdown: string): string[] {
  return [...proseOf(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

async function brokenLinks(file: string): Promise<string[]> {
  const broken: string[] = [];
  const markdown = await readDoc(file);
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path))).replace(/\/$/, '');
    const name = relative('.', resolved);
    if (LANDING_ELSEWHERE.has(name) || LANDING_ELSEWHERE.has(`${name}#${anchor}`)) continue;
    const absolute = join(REPO_ROOT, resolved);
    if (resolved.startsWith('..') || !existsSync(absolute)) {
      broken.push(`${target}: no file ${resolved}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!statSync(absolute).isFile() || !resolved.endsWith('.md')) {
      broken.push(`${target}: an anchor into ${resolved}, which is not a Markdown page`);
      continue;
    }
    if (!headingIds(await readDoc(resolved)).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${resolved}`);
  }
  return broken;
}

describe('links in README.md, CONTRIBUTING.md and docs/', async () => {
  const files = await docFiles();

  it('finds the pages', () => {
    expect(files).toContain('docs/getting-started.md');
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s: every relative link and #anchor resolves', async (file) => {
    expect(await brokenLinks(file)).toEqual([]);
  });

  it('reads heading ids as GitHub makes them', () => {
    const ids = headingIds('# Concepts\n## Adopt, don\'t duplicate\n## Confirming records: `postsync state confirm`\n## postsync\'s own errors\n## Drift\n## Drift\n```\n## not a heading\n```\n');
    expect([...ids]).toEqual(['concepts', 'adopt-dont-duplicate', 'confirming-records-postsync-state-confirm', 'postsyncs-own-errors', 'drift', 'drift-1']);
  });
});
