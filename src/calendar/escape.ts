/**
 * The calendar page's only way to put text into HTML. Everything the page's HTML holds goes
 * through `html` (text and attribute values escaped) or `jsonForScript` (the data island); the
 * page's script builds every element from that data with `textContent` and `setAttribute`,
 * never with markup. So a caption holding `<script>` or `"><img onerror=…>` shows as text.
 */

/** Markup that is already safe: made by `html` (or `trusted`, for constants of our own). */
export class SafeHtml {
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A template whose interpolated values are escaped (arrays are joined, null/undefined/false are
 * nothing), except SafeHtml from another `html` call. Attribute values must be quoted.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!;
  for (let index = 0; index < values.length; index++) out += render(values[index]!) + strings[index + 1]!;
  return new SafeHtml(out);
}

/** Our own constant markup or code (the style sheet, the page's script), never user data. */
export function trusted(text: string): SafeHtml {
  return new SafeHtml(text);
}

/**
 * JSON for `<script type="application/json">`: `<` is written `\u003c` (so no `</script>` or
 * `<!--` can end or change the element), as are `>`, `&` and the two line separators JavaScript
 * once treated as line ends. JSON.parse reads it back unchanged.
 */
export function jsonForScript(value: unknown): SafeHtml {
  return new SafeHtml(JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * A `<script>` element around safe content (`jsonForScript`, our own code). Made here rather than
 * inside an `html` template: a bundler rewrites a tagged template that holds the text `</script`
 * into a call to a helper package of its own.
 */
export function scriptElement(type: 'application/json' | null, id: string | null, body: SafeHtml): SafeHtml {
  const attributes = `${type === null ? '' : ` type="${escapeHtml(type)}"`}${id === null ? '' : ` id="${escapeHtml(id)}"`}`;
  return new SafeHtml(`<script${attributes}>${body.toString()}</script>`);
}
