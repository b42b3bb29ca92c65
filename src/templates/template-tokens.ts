/**
 * `{{ name }}`, `{{> path }}` and `\{{` in a text, as a list of parts. Scanning never fails: what
 * is not a well-formed placeholder comes back as a `malformed` part, for the renderer to report.
 */
export type TemplatePart =
  | { kind: 'text'; text: string; offset: number }
  | { kind: 'variable'; name: string; offset: number; raw: string }
  | { kind: 'snippet'; path: string; offset: number; raw: string }
  | { kind: 'malformed'; raw: string; offset: number; unclosed: boolean };

/** Dotted names of letters, digits, `_` and `-`, each part starting with a letter or `_`. */
export const TEMPLATE_NAME = /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*$/;

export function scanTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let literalStart = 0;
  const flush = (next: number) => {
    if (literal !== '') parts.push({ kind: 'text', text: literal, offset: literalStart });
    literal = '';
    literalStart = next;
  };
  let index = 0;
  while (index < text.length) {
    const open = text.indexOf('{{', index);
    if (open === -1) break;
    if (open > 0 && text[open - 1] === '\\') {
      // `\{{` writes `{{`: the backslash goes, the braces stay.
      literal += `${text.slice(index, open - 1)}{{`;
      index = open + 2;
      continue;
    }
    literal += text.slice(index, open);
    flush(open);
    const close = text.indexOf('}}', open + 2);
    const lineEnd = text.indexOf('\n', open);
    if (close === -1 || (lineEnd !== -1 && lineEnd < close)) {
      const raw = text.slice(open, lineEnd === -1 ? text.length : lineEnd);
      parts.push({ kind: 'malformed', raw, offset: open, unclosed: true });
      index = open + raw.length;
      literalStart = index;
      continue;
    }
    const raw = text.slice(open, close + 2);
    parts.push(placeholder(raw, open));
    index = close + 2;
    literalStart = index;
  }
  literal += text.slice(index);
  flush(text.length);
  return parts;
}

function placeholder(raw: string, offset: number): TemplatePart {
  const inner = raw.slice(2, -2).trim();
  if (inner.startsWith('>')) {
    const path = inner.slice(1).trim();
    return path !== '' && !/\s/.test(path) ? { kind: 'snippet', path, offset, raw } : { kind: 'malformed', raw, offset, unclosed: false };
  }
  return TEMPLATE_NAME.test(inner) ? { kind: 'variable', name: inner, offset, raw } : { kind: 'malformed', raw, offset, unclosed: false };
}
