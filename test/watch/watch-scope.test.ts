import { describe, expect, it } from 'vitest';
import type { FsEvent } from '../../src/watch/file-watcher.js';
import { foldEvents } from '../../src/watch/file-changes.js';
import { WatchScope } from '../../src/watch/watch-scope.js';

const root = '/project';
const scope = () => new WatchScope({ root, contentDir: '/project/posts', statePath: '/project/.postsync/state.json' });

describe('WatchScope', () => {
  it('looks at the content folder, the config, the state file and the folders above them, nothing else', () => {
    const watched = scope();
    for (const path of ['/project', '/project/posts', '/project/posts/2026/a.md', '/project/posts/notes.txt', '/project/postsync.yaml', '/project/postsync.yml', '/project/.postsync', '/project/.postsync/state.json']) {
      expect([path, watched.isRelevant(path)]).toEqual([path, true]);
    }
    for (const path of ['/project/src', '/project/node_modules', '/project/posts/.git', '/project/posts/.a.md.swp', '/project/posts/node_modules/x.md', '/project/.postsync/local-api', '/project/.postsync/state.json.lock', '/elsewhere']) {
      expect([path, watched.isRelevant(path)]).toEqual([path, false]);
    }
  });

  it('adds referenced media, the files beside them and the folders above; returns what the watcher must add', () => {
    const watched = scope();
    expect(watched.setMedia(['/project/assets/img/cover.png', '/project/logo.png', '/outside/x.png'])).toEqual(['/project/assets', '/project/logo.png']);
    expect(watched.isRelevant('/project/assets/img')).toBe(true);
    expect(watched.isRelevant('/project/assets/img/later.png')).toBe(true);
    expect(watched.isRelevant('/project/assets/other')).toBe(false);
    expect(watched.isMediaFile('/project/logo.png')).toBe(true);
    expect(watched.setMedia(['/project/logo.png', '/project/assets/img/cover.png'])).toEqual([]);
    expect(watched.setMedia(['/project/assets/img/cover.png', '/project/assets/img/second.png'])).toEqual([]);
  });

  it('tells posts, content folders, the config and the state apart', () => {
    const watched = scope();
    expect(watched.roleOf('/project/posts/a.md', { folder: false })).toBe('post');
    expect(watched.roleOf('/project/posts/2026', { folder: true })).toBe('content-folder');
    expect(watched.roleOf('/project/posts/a.png', { folder: false })).toBe('other');
    expect(watched.roleOf('/project/postsync.yaml', { folder: false })).toBe('config');
    expect(watched.roleOf('/project/.postsync/state.json', { folder: false })).toBe('state');
  });

  it('takes a file of the snippets folder inside the content folder (content: .) as a snippet, never a post', () => {
    const watched = new WatchScope({ root, contentDir: root, statePath: '/project/.postsync/state.json' });
    expect(watched.roleOf('/project/snippets/signature.md', { folder: false })).toBe('other');
    expect(watched.roleOf('/project/snippets/deep', { folder: true })).toBe('other');
    expect(watched.roleOf('/project/lib/snippets/a.md', { folder: false })).toBe('post');
    const named = new WatchScope({ root, contentDir: root, statePath: '/project/.postsync/state.json', snippetsDir: '/project/parts' });
    expect(named.roleOf('/project/parts/a.md', { folder: false })).toBe('other');
    expect(named.roleOf('/project/snippets/a.md', { folder: false })).toBe('post');
  });
});

describe('foldEvents', () => {
  const event = (kind: FsEvent['kind'], path: string): FsEvent => ({ kind, path });

  it('reads an editor save as one change per path', () => {
    const changes = foldEvents(
      [
        event('add', '/project/posts/a.md.tmp'),
        event('unlink', '/project/posts/a.md'),
        event('unlink', '/project/posts/a.md.tmp'),
        event('add', '/project/posts/a.md'),
        event('change', '/project/posts/a.md'),
        event('unlink', '/project/posts/old.md'),
        event('add', '/project/posts/new.md'),
        event('unlinkDir', '/project/posts/2026'),
        event('addDir', '/project/posts/2027'),
      ],
      scope(),
    );
    expect(changes.map(({ role, change }) => [role, change])).toEqual([
      ['other', null],
      ['post', { file: 'posts/a.md', kind: 'saved' }],
      ['post', { file: 'posts/old.md', kind: 'deleted' }],
      ['post', { file: 'posts/new.md', kind: 'added' }],
      ['content-folder', { file: 'posts/2026', kind: 'folder-deleted' }],
      ['content-folder', { file: 'posts/2027', kind: 'folder-added' }],
    ]);
  });
});
