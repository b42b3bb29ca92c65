import { InvalidConfigError } from '../config/invalid-config-error.js';
import type { Config } from '../config/types.js';
import type { WatchEvent } from './events.js';

/**
 * Reads postsync.yaml again when it changes during watch, and says what a person should know: an
 * invalid file (its diagnostics), the file valid again, another API named than the one watched.
 * Remembers only whether the last read was invalid.
 */
export class ConfigReloader {
  readonly #read: () => Promise<Config>;
  readonly #emit: (event: WatchEvent) => void;
  readonly #now: () => Date;
  #invalid = false;

  constructor(options: { read: () => Promise<Config>; emit: (event: WatchEvent) => void; now: () => Date }) {
    this.#read = options.read;
    this.#emit = options.emit;
    this.#now = options.now;
  }

  /** The configuration read again, or null when it cannot be used (reported; the current one stays). */
  async reload(current: Config): Promise<Config | null> {
    let next: Config;
    try {
      next = await this.#read();
    } catch (error) {
      if (error instanceof InvalidConfigError) {
        this.#invalid = true;
        this.#emit({ type: 'config-invalid', at: this.#now(), diagnostics: error.diagnostics });
      } else {
        this.#emit({ type: 'error', at: this.#now(), during: 'config', error: error instanceof Error ? error : new Error(String(error)) });
      }
      return null;
    }
    if (this.#invalid) this.#emit({ type: 'notice', at: this.#now(), message: 'postsync.yaml is valid again.' });
    this.#invalid = false;
    if (next.api.url !== current.api.url) {
      this.#emit({ type: 'notice', at: this.#now(), message: 'postsync.yaml now names another API; watch keeps planning against the one it started with. Restart watch to switch.' });
    }
    return next;
  }
}
