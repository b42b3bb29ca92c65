import { didYouMean } from '../text/did-you-mean.js';

/** The canonical IANA name (`europe/berlin` → `Europe/Berlin`), or undefined when Intl does not know the zone. */
export function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** "did you mean `Europe/Berlin`?" for a misspelt zone name. */
export function suggestTimeZone(name: string): string | undefined {
  return didYouMean(name, Intl.supportedValuesOf('timeZone'));
}
