/**
 * The part of the GitHub Actions expression language our workflows and action.yml use: the
 * contexts inputs, secrets, github, env, steps, matrix, needs and runner (its temp); property paths (`a.b`) and index
 * access (`secrets[matrix.calendar.apiKeySecret]`); string, number and boolean literals; `==`,
 * `!=`, `!`, `&&`, `||` and parentheses; the functions fromJSON, toJSON, format, contains,
 * startsWith, and the status functions in `if:`. Anything else throws, so a workflow that starts
 * using more fails this harness loudly instead of being run wrongly.
 */
export type Contexts = {
  inputs?: Record<string, string>;
  secrets?: Record<string, string>;
  github?: Record<string, unknown>;
  env?: Record<string, string>;
  steps?: Record<string, { outputs: Record<string, string>; outcome: 'success' | 'failure' | 'skipped' }>;
  matrix?: Record<string, unknown>;
  needs?: Record<string, { outputs: Record<string, string>; result: 'success' | 'failure' | 'skipped' }>;
  runner?: Record<string, string>;
};

const CONTEXTS = ['inputs', 'secrets', 'github', 'env', 'steps', 'matrix', 'needs', 'runner'];
const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|([A-Za-z_][\w-]*)|(==|!=|&&|\|\||[!()[\].,]))/y;

type Token = { kind: 'number' | 'string' | 'name' | 'op'; text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(source);
    if (!match) throw new Error(`expression not supported by the workflow harness: ${source} (at ${source.slice(at)})`);
    if (match[1] !== undefined) tokens.push({ kind: 'number', text: match[1] });
    else if (match[2] !== undefined) tokens.push({ kind: 'string', text: match[2].replaceAll("''", "'") });
    else if (match[3] !== undefined) tokens.push({ kind: 'name', text: match[3] });
    else tokens.push({ kind: 'op', text: match[4]! });
  }
  return tokens;
}

/**
 * Loose equality as GitHub does it: strings compare case-insensitively; values of different types
 * compare as numbers (null, false and '' are 0), so a missing secret or property equals ''.
 */
function equal(a: unknown, b: unknown): boolean {
  const [left, right] = [a ?? null, b ?? null];
  if (typeof left === 'string' && typeof right === 'string') return left.toLowerCase() === right.toLowerCase();
  if (typeof left === typeof right) return left === right;
  return toNumber(left) === toNumber(right);
}

function toNumber(value: unknown): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? 0 : Number(value);
  return Number.NaN;
}

function truthy(value: unknown): boolean {
  return !(value === false || value === 0 || value === '' || value === null || value === undefined);
}

export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Evaluates one expression (without `${{ }}`); `status` answers always()/success()/failure(). */
export function evaluateValue(source: string, contexts: Contexts, status: { failed: boolean } = { failed: false }): unknown {
  const tokens = tokenize(source);
  let position = 0;
  const peek = (text?: string) => (text === undefined ? tokens[position] : tokens[position]?.kind === 'op' && tokens[position]?.text === text ? tokens[position] : undefined);
  const expect = (text: string) => {
    if (!peek(text)) throw new Error(`expected ${text} in ${source}`);
    position++;
  };
  const call = (name: string, args: unknown[]): unknown => {
    switch (name) {
      case 'fromJSON':
        return JSON.parse(toText(args[0]));
      case 'toJSON':
        return JSON.stringify(args[0]);
      case 'format':
        return toText(args[0]).replace(/\{(\d+)\}/g, (_all, index: string) => toText(args[Number(index) + 1]));
      case 'contains':
        return Array.isArray(args[0]) ? args[0].some((item) => equal(item, args[1])) : toText(args[0]).toLowerCase().includes(toText(args[1]).toLowerCase());
      case 'startsWith':
        return toText(args[0]).toLowerCase().startsWith(toText(args[1]).toLowerCase());
      case 'always':
        return true;
      case 'success':
        return !status.failed;
      case 'failure':
        return status.failed;
      case 'cancelled':
        return false;
      default:
        throw new Error(`function not supported by the workflow harness: ${name}()`);
    }
  };
  const primary = (): unknown => {
    const token = tokens[position++];
    if (!token) throw new Error(`unexpected end of ${source}`);
    if (token.kind === 'number') return Number(token.text);
    if (token.kind === 'string') return token.text;
    if (token.kind === 'op' && token.text === '(') {
      const value = or();
      expect(')');
      return value;
    }
    if (token.kind === 'op' && token.text === '!') return !truthy(primary());
    if (token.kind !== 'name') throw new Error(`unexpected ${token.text} in ${source}`);
    if (token.text === 'true' || token.text === 'false') return token.text === 'true';
    if (token.text === 'null') return null;
    let value: unknown;
    if (peek('(')) {
      position++;
      const args: unknown[] = [];
      while (!peek(')')) {
        args.push(or());
        if (peek(',')) position++;
      }
      expect(')');
      value = call(token.text, args);
    } else {
      if (!CONTEXTS.includes(token.text)) throw new Error(`context not supported by the workflow harness: ${token.text}`);
      value = contexts[token.text as keyof Contexts] ?? {};
    }
    for (;;) {
      if (peek('.')) {
        position++;
        const name = tokens[position++];
        if (name?.kind !== 'name') throw new Error(`expected a property name in ${source}`);
        value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name.text] : undefined;
      } else if (peek('[')) {
        position++;
        const key = or();
        expect(']');
        value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[toText(key)] : undefined;
      } else return value;
    }
  };
  const comparison = (): unknown => {
    let value = primary();
    while (peek('==') || peek('!=')) {
      const op = tokens[position++]!.text;
      const right = primary();
      value = op === '==' ? equal(value, right) : !equal(value, right);
    }
    return value;
  };
  const and = (): unknown => {
    let value = comparison();
    while (peek('&&')) {
      position++;
      const right = comparison();
      value = truthy(value) ? right : value;
    }
    return value;
  };
  function or(): unknown {
    let value = and();
    while (peek('||')) {
      position++;
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  }
  const value = or();
  if (position !== tokens.length) throw new Error(`expression not supported by the workflow harness: ${source}`);
  return value;
}

/** One expression's value as text: a missing property (e.g. an unset secret) is the empty string, as on GitHub. */
export function evaluate(expression: string, contexts: Contexts): string {
  return toText(evaluateValue(expression, contexts));
}

/** Replaces every `${{ … }}` in a string. */
export function interpolate(text: string, contexts: Contexts): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_all, expression: string) => evaluate(expression, contexts));
}

/** A value that is exactly one `${{ … }}` keeps its type (a matrix list from fromJSON); anything else is text. */
export function interpolateValue(value: unknown, contexts: Contexts): unknown {
  if (typeof value !== 'string') return value;
  const whole = /^\$\{\{(.*)\}\}$/s.exec(value.trim());
  return whole ? evaluateValue(whole[1]!, contexts) : interpolate(value, contexts);
}

/**
 * Whether a step (or job) runs, given its `if:` and whether an earlier step of the job failed. As
 * on GitHub, a condition without a status function means `success() && (condition)`.
 */
export function shouldRun(condition: unknown, options: { failed: boolean }, contexts: Contexts = {}): boolean {
  if (condition === undefined) return !options.failed;
  const text = String(condition).trim().replace(/^\$\{\{(.*)\}\}$/s, '$1').trim();
  const statusChecked = /\b(always|success|failure|cancelled)\(\)/.test(text);
  const value = truthy(evaluateValue(text, contexts, options));
  return statusChecked ? value : value && !options.failed;
}
