// A generated content repository of N posts, and a fast way to make the same posts exist remotely
// with a state file that owns them (what N applies would leave behind, without running N applies).
// Made with this repository's build, whichever build a benchmark measures.
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import pLimit from 'p-limit';
import { fromRepoDist, mediaGenerators } from './paths.mjs';

const { DEMO_ACCOUNTS, DEMO_API_KEY } = await fromRepoDist('src/emulator/index.js');
const { makePng, writeMp4File } = await mediaGenerators();

export { DEMO_ACCOUNTS, DEMO_API_KEY };

/** Shared media: every post with media uses one of these two files. */
const MEDIA = { image: 'media/cover.png', video: 'media/clip.mp4' };

/**
 * Front-matter and body of post number `i`: a quarter photoC posts with an image, a quarter vidA
 * videos, a quarter shortB videos, a quarter drafts with no targets; every fifth targeted post is
 * scheduled (in 2031, so never in the past). `variant` changes the text (for "new posts" runs).
 */
export function postFile(i, { variant = 'v1' } = {}) {
  const kind = i % 4;
  const scheduled = kind !== 3 && i % 5 === 0;
  const lines = ['---'];
  if (scheduled) lines.push(`scheduledAt: 2031-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')} 09:${String(i % 60).padStart(2, '0')}`);
  if (kind === 0) lines.push('targets: [brand-photo]', `media: [${MEDIA.image}]`);
  if (kind === 1) lines.push('targets:', '  - account: brand-video', '    options:', `      vidATitle: "Episode ${i}"`, '      vidATags: [bench, coffee]', `media: [${MEDIA.video}]`);
  if (kind === 2) lines.push('targets:', '  - account: brand-short', '    options: { shortBAllowComment: true }', `media: [${MEDIA.video}]`);
  if (kind === 3) lines.push('targets: []');
  lines.push('---', `Post ${i} (${variant}): fresh beans, a new roast and a short note about our café.`, '');
  return lines.join('\n');
}

/**
 * Writes postsync.yaml, the two media files and `posts` post files in folders of 100. The video is
 * 64 KiB unless `videoBytes` says otherwise (then a sparse file: its bytes are hashed, not stored).
 */
export async function writeProject(dir, { posts, variant = 'v1', videoBytes }) {
  await mkdir(join(dir, 'media'), { recursive: true });
  await writeFile(
    join(dir, 'postsync.yaml'),
    ['timezone: Europe/Berlin', 'accounts:', `  brand-photo: ${DEMO_ACCOUNTS.photo}`, `  brand-video: ${DEMO_ACCOUNTS.video}`, `  brand-short: ${DEMO_ACCOUNTS.short}`, ''].join('\n'),
  );
  await writeFile(join(dir, MEDIA.image), makePng({ width: 64, height: 64, rgb: { r: 20, g: 120, b: 110 } }));
  const video = { durationSeconds: 12, videoCodec: 'avc1', audioCodec: 'mp4a', width: 1280, height: 720 };
  await writeMp4File(join(dir, MEDIA.video), videoBytes === undefined ? { ...video, sizeBytes: 64 * 1024 } : { ...video, sizeBytes: videoBytes, sparse: true });
  const folderOf = (i) => join(dir, 'posts', `batch-${String(Math.floor(i / 100)).padStart(3, '0')}`);
  for (let i = 0; i < posts; i += 100) await mkdir(folderOf(i), { recursive: true });
  const limit = pLimit(32);
  await Promise.all(Array.from({ length: posts }, (_, i) => limit(() => writeFile(join(folderOf(i), `post-${String(i).padStart(5, '0')}.md`), postFile(i, { variant })))));
}

/**
 * Makes every post of the project exist on `baseUrl` and writes the state that owns them, as a
 * series of applies would: the media uploaded once each, each post created (drafts, or scheduled
 * in the create body) with `concurrency` requests in flight, and the state file written once.
 * Records: postId, file, appliedHash = shapeHash(shape), remoteUpdatedAt, appliedAt, and the seal.
 */
export async function seedRemote(dir, { baseUrl, concurrency = 16, local = false }) {
  const { loadConfig } = await fromRepoDist('src/config/load-config.js');
  const { readContent } = await fromRepoDist('src/content/read-content.js');
  const { createMediaMemo } = await fromRepoDist('src/media/media-memo.js');
  const { ApiClient } = await fromRepoDist('src/api/index.js');
  const { createBody } = await fromRepoDist('src/apply/payload.js');
  const { prettyCanonicalJson } = await fromRepoDist('src/state/hash.js');
  const { shapeHash } = await fromRepoDist('src/content/shape-hash.js');
  const { stateSectionId } = await fromRepoDist('src/state/state-file.js');
  const { writeFileAtomic } = await fromRepoDist('src/state/atomic.js');
  const { StateSeal, calendarIdentity } = await fromRepoDist('src/state/seal.js');

  const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY }, flags: { apiUrl: baseUrl } });
  const content = await readContent({ config, now: new Date(), media: createMediaMemo() });
  const errors = content.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`generated posts do not validate: ${JSON.stringify(errors.slice(0, 3))}`);

  const client = new ApiClient({ baseUrl: config.api.url, apiKey: DEMO_API_KEY });
  try {
    const session = await client.session();
    // `local`: the remote is the project's embedded local API (served from its folder while seeding).
    const apiUrl = local ? 'local' : config.api.url;
    const id = stateSectionId({ apiUrl, projectId: session.project.id, local });
    // Sealed as an apply seals them: a record without its seal blocks its post from every plan.
    const seal = new StateSeal({ apiKey: DEMO_API_KEY, targetId: id, calendar: calendarIdentity(dir) });
    const section = { apiUrl, projectId: session.project.id, posts: {}, media: {}, pending: {}, uploads: {} };
    const files = new Map();
    for (const post of content.posts) for (const media of post.media) files.set(media.sha256, media);
    for (const media of files.values()) {
      const ticket = await client.createUpload({ kind: media.kind, contentType: media.contentType, sizeBytes: media.sizeBytes, fileName: basename(media.path) });
      const { multipart } = ticket.upload;
      if (multipart) await client.uploadMultipart({ mediaId: ticket.media.id, ...multipart }, { path: media.absolutePath, sizeBytes: media.sizeBytes });
      else await client.uploadSingle(ticket, { path: media.absolutePath, sizeBytes: media.sizeBytes, contentType: media.contentType });
      const done = await client.completeMedia(ticket.media.id);
      section.media[media.sha256] = seal.sealed('media', media.sha256, { mediaId: done.id, sizeBytes: media.sizeBytes, contentType: media.contentType, uploadedAt: new Date().toISOString() });
    }
    const limit = pLimit(concurrency);
    let made = 0;
    await Promise.all(
      content.posts.map((post) =>
        limit(async () => {
          const body = { ...createBody(post.shape, section), ...(post.shape.scheduledAt ? { scheduledAt: post.shape.scheduledAt } : {}) };
          const created = await client.createPost(body, { idempotencyKey: `bench-seed-${post.key}` });
          section.posts[post.key] = seal.sealed('posts', post.key, { postId: created.id, file: post.file, appliedHash: shapeHash(post.shape), remoteUpdatedAt: created.updatedAt, appliedAt: new Date().toISOString() });
          made += 1;
        }),
      ),
    );
    await writeFileAtomic(config.statePath, prettyCanonicalJson({ version: 1, targets: { [id]: section } }));
    return { posts: made, media: files.size };
  } finally {
    await client.close();
  }
}
