import { PostDerived, type DerivedEntry, type PostNamed } from '../cache/post-derived.js';
import type { CardStore } from './read-cards.js';

/**
 * The cards of a long-lived calendar (`watch --calendar`) in memory: each calendar made with it
 * gets the cards of the one before, under the same card context, and keeps only the cards it
 * used or made, so the memo follows the project instead of growing with every edit. After a save,
 * only the posts it changed are made into cards again.
 */
export function cardMemo(): CardStore {
  let context: string | null = null;
  let current = new Map<string, DerivedEntry<PostNamed>>();
  return {
    calendarCards<T extends PostNamed>(cardContext: string): PostDerived<T> {
      const previous = cardContext === context ? current : new Map<string, DerivedEntry<PostNamed>>();
      context = cardContext;
      const next = new Map<string, DerivedEntry<PostNamed>>();
      current = next;
      return new PostDerived<T>({
        get: (key) => {
          const entry = next.get(key) ?? previous.get(key);
          if (entry !== undefined) next.set(key, entry);
          return entry as DerivedEntry<T> | undefined;
        },
        set: (key, entry) => void next.set(key, entry),
      });
    },
  };
}
