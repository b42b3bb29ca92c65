import { randomUUID } from 'node:crypto';
import { InputError } from '../../errors.js';
import type { FixtureProject } from '../fixture/fixture.js';
import { historyPosts } from './history.js';
import type { StoredPost } from '../store/model.js';
import type { EmulatorStore } from '../store/store.js';
import { targetFor } from '../rules/targets.js';

/** Puts the fixture's history and seed posts into the store (fresh start or reset; never over a journal). */
export function seedPosts(store: EmulatorStore, projects: readonly FixtureProject[]): void {
  const problems: string[] = [];
  for (const fixtureProject of projects) {
    const project = store.project(fixtureProject.id);
    const history = fixtureProject.history === undefined ? [] : [fixtureProject.history].flat();
    history.forEach((batch, i) => {
      for (const id of batch.accounts ?? []) {
        if (!project.account(id)) problems.push(`projects ${project.id} history[${i}]: account ${id} is not in the project`);
      }
    });
    if (problems.length === 0) for (const { post, key } of historyPosts(project, history)) store.putPost(project.id, post, key);
    (fixtureProject.posts ?? []).forEach((seed, i) => {
      const createdAt = new Date(seed.createdAt ? Date.parse(seed.createdAt) : store.clock.now()).toISOString();
      const targets = (seed.targets ?? []).flatMap((input) => {
        const account = project.account(input.socialAccountId);
        if (account) return [targetFor(account, input)];
        problems.push(`projects ${project.id} posts[${i}]: account ${input.socialAccountId} is not in the project`);
        return [];
      });
      const scheduledAt = seed.scheduledAt ? new Date(seed.scheduledAt).toISOString() : null;
      const post: StoredPost = {
        id: (seed.id ?? randomUUID()).toLowerCase(),
        status: scheduledAt === null ? 'draft' : 'scheduled',
        content: seed.content,
        scheduledAt,
        createdAt,
        updatedAt: createdAt,
        targets,
        mediaIds: [],
      };
      store.putPost(project.id, post);
    });
  }
  if (problems.length > 0) throw new InputError(`invalid fixture posts:\n  ${problems.join('\n  ')}`);
}
