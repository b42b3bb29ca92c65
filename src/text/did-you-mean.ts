/**
 * Optimal-string-alignment distance (Levenshtein plus transposition of two adjacent characters),
 * so `sceduledAt`, `scheduledat` and `shceduledAt` are all one or two edits from `scheduledAt`.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** Case, `_` and `-` differences are the most common misspellings of a key; they cost nothing here. */
function fold(word: string): string {
  return word.toLowerCase().replace(/[-_\s]/g, '');
}

/**
 * The candidate closest to `word`, if it is close enough to be a plausible misspelling
 * (at most a third of the word's length in edits, and at least one edit allowed).
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const folded = fold(word);
  const allowed = Math.max(1, Math.floor(folded.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(folded, fold(candidate));
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/**
 * "did you mean `x`?" or undefined when nothing is close. `synonyms` maps words that are no
 * misspelling but another name for a candidate (`date` for `scheduledAt`), compared as folded.
 */
export function didYouMean(word: string, candidates: Iterable<string>, synonyms: Readonly<Record<string, string>> = {}): string | undefined {
  const folded = fold(word);
  const match = Object.hasOwn(synonyms, folded) ? synonyms[folded] : closestMatch(word, candidates);
  return match === undefined ? undefined : `did you mean \`${match}\`?`;
}
