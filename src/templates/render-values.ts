import type { Diagnostic } from '../diagnostics.js';
import type { SourcePosition } from '../text/yaml-source.js';
import type { DataPath } from '../text/yaml-source.js';
import { renderTemplate, type TemplateContext } from './render-template.js';
import { fixedTextLocator } from './text-locator.js';

/**
 * Renders every text inside a value (platform options: `vidATitle`, each of `vidATags`, …),
 * leaving other values as they are. A text's problems point at its place in the front-matter:
 * `locate(path)` with the path below the value (`['vidATags', 1]`).
 */
export function renderValues<T>(value: T, context: Omit<TemplateContext, 'locate'>, locate: (path: DataPath) => SourcePosition | undefined): { value: T; diagnostics: Diagnostic[]; names: string[]; snippets: string[] } {
  const diagnostics: Diagnostic[] = [];
  const names = new Set<string>();
  const snippets = new Set<string>();
  const walk = (inner: unknown, path: (string | number)[]): unknown => {
    if (typeof inner === 'string') {
      // Template syntax starts with `{{` (an escape `\{{` too): any other text renders as itself.
      if (!inner.includes('{{')) return inner;
      const rendered = renderTemplate(inner, { ...context, locate: fixedTextLocator(locate(path)) });
      diagnostics.push(...rendered.diagnostics);
      for (const name of rendered.names) names.add(name);
      for (const snippet of rendered.snippets) snippets.add(snippet);
      return rendered.text;
    }
    if (Array.isArray(inner)) return inner.map((entry, index) => walk(entry, [...path, index]));
    if (typeof inner === 'object' && inner !== null) return Object.fromEntries(Object.entries(inner).map(([key, entry]) => [key, walk(entry, [...path, key])]));
    return inner;
  };
  return { value: walk(value, []) as T, diagnostics, names: [...names], snippets: [...snippets] };
}

/** Whether any text in `value` (a string, or one inside its arrays and objects) holds template syntax. */
export function holdsTemplate(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(holdsTemplate);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsTemplate);
  return false;
}
