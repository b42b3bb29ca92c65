#!/usr/bin/env node
// The floor of `postsync plan`: the I/O no plan can avoid, in a bare script (its own process).
// Reads every *.md under <project>/posts and, at the same time, lists every page of GET /posts
// (limit 100, following nextCursor) with undici. Nothing is parsed beyond the JSON pages, unless
// --yaml: then each file's front-matter (between its `---` lines) is parsed with the `yaml`
// package too, the floor the cold plan (`--no-cache`) is held to.
// Files are read the cheapest way Node has (readFileSync: a fraction of the CPU time of
// fs/promises), yielding to the event loop between batches so the listing runs alongside.
// With --both-ends, the pages are listed as postsync lists them: oldest first and, from the second
// page, newest first at once, until the two chains cross in creation time.
// Usage: node bench/plan/floor.mjs <projectDir> <baseUrl> <apiKey> [--both-ends] [--yaml]; prints { files, posts, pages, parsed }.
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { parse as parseYaml } from 'yaml';

const [dir, baseUrl, apiKey, ...modes] = process.argv.slice(2);
const BATCH = 64;
const withYaml = modes.includes('--yaml');

/** The front-matter's data, or undefined when the file has none. */
function frontMatterOf(text) {
  if (!text.startsWith('---\n')) return undefined;
  const end = text.indexOf('\n---', 3);
  return end === -1 ? undefined : parseYaml(text.slice(4, end + 1));
}

async function readAllFiles(folder) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.md')).map((entry) => join(entry.parentPath ?? entry.path, entry.name));
  let bytes = 0;
  let parsed = 0;
  for (let start = 0; start < files.length; start += BATCH) {
    for (const file of files.slice(start, start + BATCH)) {
      const text = readFileSync(file, 'utf8');
      bytes += text.length;
      if (withYaml && frontMatterOf(text) !== undefined) parsed += 1;
    }
    await yieldToEventLoop();
  }
  return { files: files.length, bytes, parsed };
}

async function listPage(agent, sort, cursor) {
  const url = `${baseUrl}/posts?limit=100&sort=${sort}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`;
  const response = await request(url, { headers: { authorization: `Bearer ${apiKey}` }, dispatcher: agent });
  if (response.statusCode !== 200) throw new Error(`GET /posts answered ${response.statusCode}`);
  return (await response.body.json()).data;
}

async function listAllPosts(agent) {
  let cursor = null;
  let posts = 0;
  let pages = 0;
  do {
    const page = await listPage(agent, 'oldest', cursor);
    posts += page.items.length;
    pages += 1;
    cursor = page.items.length > 0 ? page.nextCursor : null;
  } while (cursor);
  return { posts, pages };
}

async function listFromBothEnds(agent) {
  const ids = new Set();
  const edge = { oldest: undefined, newest: undefined };
  let pages = 0;
  let done = false;
  let newest;
  const walk = async (sort) => {
    let cursor = null;
    while (!done) {
      const page = await listPage(agent, sort, cursor);
      pages += 1;
      for (const post of page.items) ids.add(post.id);
      edge[sort] = page.items.at(-1)?.createdAt ?? edge[sort];
      cursor = page.items.length > 0 ? page.nextCursor : null;
      if (!cursor || (edge.oldest !== undefined && edge.newest !== undefined && Date.parse(edge.oldest) > Date.parse(edge.newest))) done = true;
      if (sort === 'oldest' && !done && newest === undefined) newest = walk('newest');
    }
  };
  await walk('oldest');
  await newest;
  return { posts: ids.size, pages };
}

const agent = new Agent();
try {
  const [read, listed] = await Promise.all([readAllFiles(join(dir, 'posts')), modes.includes('--both-ends') ? listFromBothEnds(agent) : listAllPosts(agent)]);
  process.stdout.write(`${JSON.stringify({ files: read.files, posts: listed.posts, pages: listed.pages, parsed: read.parsed })}\n`);
} finally {
  await agent.close();
}
