import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/api/types.js';
import { remotePosters } from '../../src/calendar/media-views.js';
import type { PostCard } from '../../src/calendar/post-card.js';
import type { ProjectState } from '../../src/state/types.js';

/** A video card per poster URL the remote answers, each with its own media record in the state. */
function postersOf(urls: string[]): Map<string, string> {
  const sha = (index: number) => String(index).padStart(64, '0');
  const cards = urls.map((_, index) => ({ key: `post-${index}`, media: [{ video: sha(index) }] }) as unknown as PostCard);
  const lives = urls.map((posterUrl, index) => ({ media: [{ id: `media-${index}`, posterUrl }] }) as unknown as Post);
  const media = Object.fromEntries(urls.map((_, index) => [sha(index), { mediaId: `media-${index}`, sizeBytes: 1, contentType: 'video/mp4', uploadedAt: '2027-01-01T00:00:00Z' }]));
  return remotePosters(cards, lives, { apiUrl: 'https://api.example.com', projectId: 'demo', posts: {}, media, pending: {}, uploads: {} } as ProjectState);
}

describe('attack: poster frames the remote names for the calendar page', () => {
  it('keeps only https addresses: no script, data, plain http or file address reaches an <img> (held)', () => {
    const hostile = ['javascript:window.pwned=1', 'data:image/svg+xml,<svg onload="window.pwned=1"/>', 'http://127.0.0.1:8080/admin', 'file:///etc/passwd', ' https://x.example/p.png', 'HTTPS://x.example/p.png', '//evil.example/p.png'];
    expect([...postersOf([...hostile, 'https://cdn.example.com/poster.png']).values()]).toEqual(['https://cdn.example.com/poster.png']);
  });
});
