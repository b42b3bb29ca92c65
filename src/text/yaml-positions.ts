import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { DataPath, SourcePosition, YamlSource } from './yaml-source.js';

/**
 * The positions of a parsed YAML text as plain data (structured-clone safe), so a text parsed in
 * one thread can be located in another: a tree that mirrors the document's mappings and
 * sequences. `locatorOf` answers exactly as `YamlSource.locate` does on the same text.
 */
export interface YamlPositions {
  /** Where `locate` points for this node: its own start, else its key's, else its parent's. */
  at?: SourcePosition;
  /** Where the key that leads here starts (mapping entries only). */
  key?: SourcePosition;
  /** A mapping's entries by key as text (the first of equal keys), or a sequence's items. */
  entries?: Map<string, YamlPositions>;
  items?: (YamlPositions | undefined)[];
}

/** The positions tree of a document (`lineCounter` is the one it was parsed with). */
export function positionsOf(doc: Document, lineCounter: LineCounter): YamlPositions {
  const position = (offset: number | undefined): SourcePosition | undefined => {
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const walk = (node: unknown, at: SourcePosition | undefined): YamlPositions => {
    const tree: YamlPositions = at === undefined ? {} : { at };
    if (isMap(node)) {
      const entries = new Map<string, YamlPositions>();
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        if (entries.has(name)) continue;
        const key = position(rangeStart(pair.key));
        const child = walk(pair.value, position(rangeStart(pair.value)) ?? key ?? at);
        entries.set(name, key === undefined ? child : { ...child, key });
      }
      tree.entries = entries;
    } else if (isSeq(node)) {
      tree.items = node.items.map((item) => (item === undefined ? undefined : walk(item, position(rangeStart(item)) ?? at)));
    }
    return tree;
  };
  return walk(doc.contents, position(rangeStart(doc.contents)));
}

/** `locate` over a positions tree: the position of the value at `path` (of its key with `key: true`), else of its nearest ancestor. */
export function locatorOf(positions: YamlPositions): YamlSource['locate'] {
  return (path: DataPath, options: { key?: boolean } = {}) => {
    let node = positions;
    for (const [index, segment] of path.entries()) {
      let child: YamlPositions | undefined;
      if (node.entries !== undefined) child = node.entries.get(String(segment));
      else if (node.items !== undefined && typeof segment === 'number') child = node.items[segment];
      if (child === undefined) return copy(node.at);
      if (index === path.length - 1 && options.key === true && node.entries !== undefined) return copy(child.key ?? node.at);
      node = child;
    }
    return copy(node.at);
  };
}

function copy(position: SourcePosition | undefined): SourcePosition | undefined {
  return position === undefined ? undefined : { line: position.line, column: position.column };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : undefined;
}
