/** Words of the post text that go into an imported file's name. */
const SLUG_WORDS = 6;
const SLUG_MAX_LENGTH = 48;
/** Used when the text has no letters or digits at all (empty, emoji only). */
const FALLBACK_SLUG = 'post';

/**
 * A file-name-safe slug of the first words of a text: lower-case ASCII letters and digits joined
 * by `-` (accents are folded, everything else separates words), at most a few words and
 * characters, cut at a word boundary.
 */
export function slugOfText(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  let slug = '';
  for (const word of words.slice(0, SLUG_WORDS)) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > SLUG_MAX_LENGTH) {
      if (slug === '') slug = word.slice(0, SLUG_MAX_LENGTH);
      break;
    }
    slug = next;
  }
  return slug === '' ? FALLBACK_SLUG : slug;
}
