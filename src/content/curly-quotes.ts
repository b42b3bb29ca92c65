import type { Diagnostic } from '../diagnostics.js';
import { curlyQuoted, curlyQuotesProblem } from '../text/curly-quotes.js';
import type { DataPath, YamlSource } from '../text/yaml-source.js';

/**
 * A warning for each front-matter text wholly in curly quotes (`vidATitle: “Saturday tasting”`):
 * the service would get the quotes as part of it. `scheduledAt` is left to its own check (there
 * the quotes make it no date: an error), and `content` (an account's own text, which may well be a
 * quotation) to the writer.
 */
export function curlyQuoteWarnings(frontMatter: unknown, file: string, locate: YamlSource['locate']): Diagnostic[] {
  const found: Diagnostic[] = [];
  const walk = (value: unknown, path: DataPath): void => {
    if (typeof value === 'string') {
      const quoted = curlyQuoted(value);
      if (quoted !== undefined) found.push({ ...curlyQuotesProblem(path, quoted, { severity: 'warning', effect: 'which are sent as part of the text' }), file, ...locate(path) });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...path, index]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'content' || (path.length === 0 && key === 'scheduledAt')) continue;
        walk(item, [...path, key]);
      }
    }
  };
  walk(frontMatter, []);
  return found;
}
