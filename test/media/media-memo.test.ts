import { stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '../helpers/media-generators/index.js';
import { createMediaMemo, probePostMedia } from '../../src/media/media-memo.js';
import { probeMedia } from '../../src/media/probe.js';
import { testPost } from '../helpers/media.js';
import { testdir } from '../helpers/testdir.js';

function countingProbe() {
  const calls: string[] = [];
  return {
    calls,
    probe: (path: string) => {
      calls.push(path);
      return probeMedia(path);
    },
  };
}

describe('MediaMemo', () => {
  it('probes a file once while its size and mtime stay the same', async () => {
    const dir = await testdir({ 'a.png': makePng({ width: 4, height: 4 }) });
    const path = join(dir, 'a.png');
    const counter = countingProbe();
    const cache = createMediaMemo({ prober: counter.probe });
    const [first, second] = await Promise.all([cache.probe(path), cache.probe(path)]);
    expect(await cache.probe(path)).toEqual(first);
    expect(second).toEqual(first);
    expect(counter.calls).toEqual([path]);

    await writeFile(path, makePng({ width: 8, height: 4 }));
    await utimes(path, new Date(), new Date(Date.now() + 5000));
    expect(await cache.probe(path)).toMatchObject({ width: 8, height: 4 });
    expect(counter.calls).toHaveLength(2);

    cache.forget(path);
    await cache.probe(path);
    expect(counter.calls).toHaveLength(3);
  });

  it('does not keep a failed probe', async () => {
    const dir = await testdir({ 'a.png': makePng({ width: 4, height: 4 }) });
    const path = join(dir, 'a.png');
    let fail = true;
    const cache = createMediaMemo({
      prober: async (file) => {
        if (fail) throw new Error('EIO');
        return probeMedia(file);
      },
    });
    await expect(cache.probe(path)).rejects.toThrow('EIO');
    fail = false;
    expect(await cache.probe(path)).toMatchObject({ kind: 'image' });
  });

  it('reads a file once for its facts and its probe: content reading, the media rules and the calendar share it', async () => {
    const dir = await testdir({ 'a.png': makePng({ width: 4, height: 2 }) });
    const path = join(dir, 'a.png');
    const counter = countingProbe();
    const memo = createMediaMemo({ prober: counter.probe });
    const facts = await memo.facts(path, await stat(path));
    expect(facts).toMatchObject({ contentType: 'image/png', kind: 'image', sizeBytes: (await stat(path)).size });
    expect(facts).not.toHaveProperty('width');
    expect(await memo.probe(path)).toMatchObject({ kind: 'image', width: 4, height: 2 });
    expect(counter.calls).toEqual([path]);
  });

  it('forgets a file\'s facts and its probe at once (watch: one forget per changed media file)', async () => {
    const dir = await testdir({ 'a.png': makePng({ width: 4, height: 4 }) });
    const path = join(dir, 'a.png');
    const counter = countingProbe();
    const memo = createMediaMemo({ prober: counter.probe });
    const then = new Date('2026-01-01T00:00:00Z');
    await utimes(path, then, then);
    const before = await memo.facts(path, await stat(path));
    await memo.probe(path);
    // The same size and mtime, other bytes: only a forget tells the memo.
    await writeFile(path, makePng({ width: 4, height: 3 }));
    await utimes(path, then, then);
    expect(await memo.facts(path, await stat(path))).toEqual(before);
    memo.forget(path);
    const after = await memo.facts(path, await stat(path));
    expect(after.sha256).not.toBe(before.sha256);
    expect(await memo.probe(path)).toMatchObject({ width: 4, height: 3 });
    expect(counter.calls).toEqual([path, path]);
  });

  it('takes the facts a run kept from an earlier one without reading the file', async () => {
    const dir = await testdir({ 'a.png': makePng({ width: 4, height: 4 }) });
    const path = join(dir, 'a.png');
    const counter = countingProbe();
    const earlier = { sha256: 'kept', sizeBytes: 1, contentType: 'image/png', kind: 'image' as const };
    const memo = createMediaMemo({ prober: counter.probe, kept: { recall: async () => earlier } });
    expect(await memo.facts(path, await stat(path))).toEqual(earlier);
    expect(counter.calls).toEqual([]);
  });
});

describe('probePostMedia', () => {
  it('probes each distinct file of all posts once, keyed by sha256 with the size', async () => {
    const dir = await testdir({ 'media/a.png': makePng({ width: 4, height: 2 }) });
    const one = testPost('posts/one.md', [], [{ path: 'media/a.png', kind: 'image', sha256: 'aa', sizeBytes: 77 }]);
    const two = testPost('posts/two.md', [], [{ path: 'media/a.png', kind: 'image', sha256: 'aa', sizeBytes: 77 }]);
    for (const post of [one, two]) post.media[0]!.absolutePath = join(dir, 'media/a.png');
    const counter = countingProbe();
    const probes = await probePostMedia([one, two], counter.probe);
    expect(counter.calls).toHaveLength(1);
    expect(probes).toEqual(new Map([['aa', { contentType: 'image/png', kind: 'image', width: 4, height: 2, sizeBytes: 77 }]]));
  });
});
