import type { Diagnostic } from '../diagnostics.js';

/** Code-unit order: the same on every machine, unlike locale collation. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sorts in place by key, in code-unit order. Posts mostly come in key order already (files are
 * read in path order): that is checked first, without a call per comparison.
 */
export function sortByKey<T extends { key: string }>(items: T[]): T[] {
  for (let index = 1; index < items.length; index++) {
    if (items[index - 1]!.key > items[index]!.key) return items.sort((a, b) => compareText(a.key, b.key));
  }
  return items;
}

/** By file, then line, then column; diagnostics without a position first within their file. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => compareText(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
