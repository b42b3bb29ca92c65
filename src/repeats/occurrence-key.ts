/** The repeat an occurrence belongs to: the key of its file's post, and the occurrence's date (YYYY-MM-DD). */
export interface OccurrenceOf {
  of: string;
  date: string;
}

/**
 * The key of a repeat's occurrence, `<key>@<YYYY-MM-DD>`: stable from run to run, since the state
 * records posts by key.
 */
export function occurrenceKey({ of, date }: OccurrenceOf): string {
  return `${of}@${date}`;
}

/**
 * The repeat and date an occurrence's key names (`occurrenceKey` read back), or undefined for a
 * key that is not an occurrence's: a state record holds only the key of the post it stands for.
 */
export function occurrenceOfKey(key: string): OccurrenceOf | undefined {
  const match = /^(.+)@(\d{4}-\d{2}-\d{2})$/.exec(key);
  return match === null ? undefined : { of: match[1]!, date: match[2]! };
}
