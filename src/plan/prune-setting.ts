/**
 * Whether a plan deletes the remote posts of removed files, and what decided it: `--prune` or
 * `--no-prune` on the command line wins over `prune:` in postsync.yaml, which wins over the
 * default (off: a removed file's scheduled post goes back to draft, a draft stays).
 */
export interface PruneSetting {
  on: boolean;
  from: 'flag' | 'config' | 'default';
}

export function pruneSetting(options: { flag: boolean | undefined; config: boolean }): PruneSetting {
  if (options.flag !== undefined) return { on: options.flag, from: 'flag' };
  return options.config ? { on: true, from: 'config' } : { on: false, from: 'default' };
}

/**
 * The plan header's line about it: none for the default, so a plan that never heard of prune
 * reads as before; said whenever a flag or postsync.yaml decided.
 */
export function pruneHeader(setting: PruneSetting, options: { config: boolean }): string | null {
  if (setting.from === 'default') return null;
  if (setting.from === 'config') return 'prune: on, from postsync.yaml';
  if (setting.on) return 'prune: on, from --prune';
  return options.config ? 'prune: off, --no-prune overrides postsync.yaml' : 'prune: off, from --no-prune';
}
