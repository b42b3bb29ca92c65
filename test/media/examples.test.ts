import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Capabilities, UploadTicket } from '../../src/api/types.js';
import { DEMO_ACCOUNTS } from '../../src/emulator/index.js';
import { rulesFor } from '../../src/emulator/rules/platform-rules.js';
import { checkMediaAgainstCapabilities, type ProbedMedia } from '../../src/media/checks.js';
import { EXAMPLE_MEDIA } from '../helpers/media-generators/examples.js';
import { probeMedia } from '../../src/media/probe.js';
import { useEmulator } from '../helpers/emulator.js';
import { shaOf, testCapabilities, testPost } from '../helpers/media.js';

const examplesDir = join(import.meta.dirname, '../../examples/media');
const names = Object.keys(EXAMPLE_MEDIA);

const demoCapabilities = new Map<string, Capabilities>(
  ([
    [DEMO_ACCOUNTS.photo, 'photoC'],
    [DEMO_ACCOUNTS.video, 'vidA'],
    [DEMO_ACCOUNTS.short, 'shortB'],
  ] as const).map(([id, platform]) => [id, testCapabilities(id, platform, rulesFor(platform))]),
);

async function probeExample(name: string): Promise<ProbedMedia> {
  const path = join(examplesDir, name);
  return { ...(await probeMedia(path)), sizeBytes: (await readFile(path)).length };
}

function check(name: string, probe: ProbedMedia, targets: Array<{ id: string; label: string; format?: string }>) {
  const post = testPost('posts/example.md', targets, [{ path: `media/${name}`, kind: probe.kind === 'video' ? 'video' : 'image' }]);
  return checkMediaAgainstCapabilities(post, new Map([[shaOf(`media/${name}`), probe]]), demoCapabilities);
}

describe('examples/media', () => {
  it.each(names)('%s is what the generator makes', async (name) => {
    expect((await readFile(join(examplesDir, name))).equals(EXAMPLE_MEDIA[name]!())).toBe(true);
  });

  it('holds images the photo account takes and videos every demo account takes', async () => {
    for (const name of ['cover.png', 'cover.jpg']) {
      expect(check(name, await probeExample(name), [{ id: DEMO_ACCOUNTS.photo, label: '@demo.photo' }])).toEqual([]);
    }
    const teaser = await probeExample('teaser.mp4');
    expect(teaser).toMatchObject({ kind: 'video', width: 1080, height: 1920, durationSeconds: 15, videoCodec: 'h264', audioCodec: 'aac' });
    const everyone = [
      { id: DEMO_ACCOUNTS.photo, label: '@demo.photo', format: 'reel' },
      { id: DEMO_ACCOUNTS.video, label: '@demo.video' },
      { id: DEMO_ACCOUNTS.short, label: '@demo.short' },
    ];
    expect(check('teaser.mp4', teaser, everyone)).toEqual([]);
    const launch = await probeExample('launch.mp4');
    expect(launch).toMatchObject({ width: 1920, height: 1080, durationSeconds: 45 });
    expect(check('launch.mp4', launch, [{ id: DEMO_ACCOUNTS.video, label: '@demo.video' }])).toEqual([]);
  });

  describe('uploaded to the local API', () => {
    const emulator = useEmulator();

    it.each(names)('%s completes with the size and duration the probe read', async (name) => {
      const probe = await probeExample(name);
      const kind = probe.kind === 'video' ? 'video' : 'image';
      const created = await emulator().api<{ data: UploadTicket }>('POST', '/media/uploads', {
        body: { kind, contentType: probe.contentType, sizeBytes: probe.sizeBytes, fileName: name },
      });
      expect(created.status).toBe(201);
      const { media, upload } = created.body.data;
      const put = await fetch(upload.url!, { method: 'PUT', headers: upload.headers, body: await readFile(join(examplesDir, name)) });
      expect(put.ok).toBe(true);
      const completed = await emulator().api('POST', `/media/${media.id}/complete`);
      expect(completed.status).toBe(200);
      expect(completed.body.data).toMatchObject({ contentType: probe.contentType, width: probe.width, height: probe.height });
      if (kind === 'video') expect(completed.body.data.durationSeconds).toBe(probe.durationSeconds);
    });
  });
});
