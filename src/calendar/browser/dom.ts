/**
 * Builds elements from data without markup: text goes in as `textContent`, attributes through
 * `setAttribute`. The page never parses HTML made from posts (see ../escape.ts), so a caption with
 * `<script>` stays text.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

export interface Attributes {
  class?: string | false | null | undefined;
  title?: string;
  [name: string]: string | number | boolean | null | undefined | ((event: Event) => void);
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value as EventListener);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? (child as Node) : document.createTextNode(String(child)));
  }
}

/** Empties `parent` and fills it with `children`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

export function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element;
}

/** `1234` → `1,234`. */
export function number(value: number): string {
  return value.toLocaleString('en-US');
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${number(count)} ${count === 1 ? word : many}`;
}
