/**
 * The few typed errors postsync throws. They are caught once, at the CLI edge, which maps them to
 * an exit code and a message; nothing below cli/ prints or exits.
 * Messages never contain the API key.
 */
export class PostsyncError extends Error {
  /** Exit code the CLI uses for this error. */
  readonly exitCode: number;
  /** One sentence on what to do about it. */
  readonly hint?: string;

  constructor(message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? 1;
    this.hint = options.hint;
  }
}

/** Bad user input: config, content files, flags. */
export class InputError extends PostsyncError {}

/** A plan file no longer matches the remote or the state (exit 3). */
export class StalePlanError extends PostsyncError {
  constructor(message: string, options: { hint?: string } = {}) {
    super(message, { exitCode: 3, hint: options.hint ?? 'Run `postsync plan` again and review the new plan.' });
  }
}

/** Another postsync process holds the state lock. */
export class LockedError extends PostsyncError {}

/** The state file cannot be read or trusted. */
export class StateError extends PostsyncError {}
