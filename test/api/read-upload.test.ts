import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { Misbehaviour } from '../helpers/hostile-api.js';
import { CRASH, hostileWorld, type Json } from '../helpers/hostile-world.js';
/**
 * Upload answers (tickets, completed media, multipart part lists) of the wrong shape: the upload
 * fails naming the endpoint and the field, and its post is not created.
 */

const world = hostileWorld();
describe('attack: upload answers of the wrong shape', () => {
  const cases: { name: string; rewrite: (data: Json, path: string) => void; misbehave?: Misbehaviour; field: RegExp }[] = [
    { name: 'a ticket whose media is null', rewrite: (data, path) => path === '/media/uploads' && (data.media = null), field: /POST \/media\/uploads: field `media`/ },
    { name: 'a ticket whose upload is a text', rewrite: (data, path) => path === '/media/uploads' && (data.upload = 'PUT'), field: /POST \/media\/uploads: field `upload`/ },
    { name: 'a ticket whose upload url is a number', rewrite: (data, path) => path === '/media/uploads' && (data.upload.url = 5), field: /POST \/media\/uploads: field `upload\.url`/ },
    { name: 'a completed media without an id', rewrite: (data, path) => path.endsWith('/complete') && delete data.id, field: /POST \/media\/\{id\}\/complete: field `id`/ },
    {
      name: 'a multipart upload of one-byte parts (a part per byte, past the 128 parts of the spec)',
      rewrite: (data, path) => path === '/media/uploads' && Object.assign(data.upload, { url: undefined, multipart: { partSizeBytes: 1, partCount: data.media.sizeBytes ?? 5000 } }),
      field: /POST \/media\/uploads: field `upload\.multipart\.partCount`/,
    },
    ...[{ parts: [null] }, { parts: [{ partNumber: '1', etag: 5, size: 'all' }] }, null].map((listed) => ({
      name: `a multipart part list of ${JSON.stringify(listed)}`,
      rewrite: (data: Json, path: string) => path === '/media/uploads' && Object.assign(data.upload, { url: undefined, multipart: { partSizeBytes: 1_000_000, partCount: 1 } }),
      misbehave: ((_req, res, url) => {
        if (!url.pathname.endsWith('/multipart')) return false;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: listed }));
        return true;
      }) satisfies Misbehaviour,
      field: /POST \/media\/\{id\}\/multipart: field `(parts|data)/,
    })),
  ];
  it.each(cases)('$name: the upload fails naming the endpoint and the field, and its post is not created', async ({ rewrite, field, misbehave: misbehaving }) => {
    const dir = await world.freshProject();
    world.rewriteData = rewrite;
    world.misbehave = misbehaving;
    const result = await runCli(['apply', '--yes'], { cwd: dir, env: world.env() });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(CRASH);
    expect(result.code, output).toBe(1);
    expect(output).toMatch(field);
    expect((await world.emulator.api('GET', '/posts')).body.data.items).toEqual([]);
  }, 120_000);
});
