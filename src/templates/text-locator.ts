import type { SourcePosition } from '../text/yaml-source.js';

/** The position in a file of an offset in a text: what diagnostics inside the text point at. */
export type TextLocator = (offset: number) => SourcePosition | undefined;

/**
 * For a text that is written verbatim in its file from `start` on (a post body, a snippet file):
 * offsets map to lines and columns exactly (columns count UTF-16 units, as the YAML positions do).
 */
export function verbatimTextLocator(text: string, start: SourcePosition): TextLocator {
  // Found when first asked for: most texts are never located (only a problem in them is).
  let lineStarts: number[] | undefined;
  return (offset) => {
    if (lineStarts === undefined) {
      lineStarts = [0];
      for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lineStarts.push(index + 1);
    }
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: start.line + low, column: (low === 0 ? start.column : 1) + offset - lineStarts[low]! };
  };
}

/** For a text whose characters cannot be placed one by one (a quoted YAML value): every offset points at the value. */
export function fixedTextLocator(position: SourcePosition | undefined): TextLocator {
  return () => position;
}
