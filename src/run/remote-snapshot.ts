import pLimit from 'p-limit';
import { ApiError } from '../api/index.js';
import type { ApiClient } from '../api/index.js';
import type { Capabilities, Post } from '../api/types.js';

/** Capability reads in flight at once: few accounts, and each is one small GET. */
const CAPABILITY_CONCURRENCY = 4;

/** Largest page the API allows: the listing costs ceil(posts / 100) requests. */
const PAGE_SIZE = 100;

/** Every remote post, all pages, in a stable order. */
export async function listAllPosts(client: ApiClient): Promise<Post[]> {
  const posts: Post[] = [];
  for await (const post of client.listPosts({ limit: PAGE_SIZE, sort: 'oldest' })) posts.push(post);
  return posts;
}

/** The rules of the accounts in use; ids the project does not know (404) are returned apart. */
export interface AccountRules {
  capabilities: Map<string, Capabilities>;
  unknownAccounts: Set<string>;
}

export async function readAccountRules(client: ApiClient, accountIds: Iterable<string>): Promise<AccountRules> {
  const limit = pLimit(CAPABILITY_CONCURRENCY);
  const rules: AccountRules = { capabilities: new Map(), unknownAccounts: new Set() };
  await Promise.all(
    [...new Set(accountIds)].map((id) =>
      limit(async () => {
        try {
          rules.capabilities.set(id, await client.capabilities(id));
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) rules.unknownAccounts.add(id);
          else throw error;
        }
      }),
    ),
  );
  return rules;
}
