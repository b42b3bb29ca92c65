import { readFileSync } from 'node:fs';
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

/**
 * Validates real responses against schemas/openapi.yaml, so the document stays the exact
 * description of what the emulator serves. Response objects are found by method, path template
 * and status; OpenAPI-level `$ref`s (responses, headers) are followed here, schema-level `$ref`s
 * by ajv, which sees the whole document under one id.
 */

// ajv and ajv-formats are CommonJS; under NodeNext their default export sits on `.default`.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

const DOC_PATH = new URL('../../schemas/openapi.yaml', import.meta.url);
const DOC_ID = 'https://postsync.invalid/openapi.json';
const BODY_EXCERPT_CHARS = 1500;

type Json = Record<string, unknown>;
export type HeaderSource = Headers | Record<string, string | string[] | number | undefined>;

interface Loaded {
  doc: Json;
  ajv: InstanceType<typeof Ajv2020>;
  validators: Map<string, ValidateFunction>;
}

let loaded: Loaded | undefined;

function load(): Loaded {
  if (!loaded) {
    const doc = parse(readFileSync(DOC_PATH, 'utf8')) as Json;
    // strict off: OpenAPI adds keywords (x-*, readOnly on refs, ...) that plain JSON Schema lacks.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(doc, DOC_ID);
    loaded = { doc, ajv, validators: new Map() };
  }
  return loaded;
}

function escapePointerPart(part: string): string {
  return part.replaceAll('~', '~0').replaceAll('/', '~1');
}

function at(doc: Json, pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = node && typeof node === 'object' ? (node as Json)[part] : undefined;
  }
  return node;
}

/** Follows OpenAPI `$ref`s (local only) and returns the object with the pointer it lives at. */
function deref(doc: Json, pointer: string): { node: Json; pointer: string } {
  let current = pointer;
  for (let hops = 0; hops < 10; hops += 1) {
    const node = at(doc, current);
    if (!node || typeof node !== 'object') throw new Error(`schemas/openapi.yaml has nothing at ${current}`);
    const ref = (node as Json).$ref;
    if (typeof ref !== 'string') return { node: node as Json, pointer: current };
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, found ${ref}`);
    current = ref.slice(1);
  }
  throw new Error(`$ref chain too long at ${pointer}`);
}

function validatorAt(pointer: string): ValidateFunction {
  const state = load();
  let validate = state.validators.get(pointer);
  if (!validate) {
    validate = state.ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
    state.validators.set(pointer, validate);
  }
  return validate;
}

function headerMap(headers: HeaderSource | undefined): Map<string, string> {
  const map = new Map<string, string>();
  if (!headers) return map;
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) map.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
  }
  return map;
}

/** Header values are text; numeric header schemas are checked on the parsed number. */
function headerValue(raw: string, schema: unknown): unknown {
  const type = (schema as Json | undefined)?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(raw.trim())) return Number(raw);
  return raw;
}

function describeErrors(where: string, errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const params = Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : '';
    return `${where}${error.instancePath || ''}: ${error.message ?? 'invalid'}${params}`;
  });
}

function checkHeaders(response: Json, pointer: string, headers: Map<string, string>): string[] {
  const problems: string[] = [];
  const declared = (response.headers ?? {}) as Json;
  for (const name of Object.keys(declared)) {
    const header = deref(load().doc, `${pointer}/headers/${escapePointerPart(name)}`);
    const raw = headers.get(name.toLowerCase());
    if (raw === undefined) {
      if (header.node.required === true) problems.push(`header ${name}: missing (required)`);
      continue;
    }
    const validate = validatorAt(`${header.pointer}/schema`);
    if (!validate(headerValue(raw, header.node.schema))) {
      problems.push(...describeErrors(`header ${name} (${JSON.stringify(raw)})`, validate.errors));
    }
  }
  return problems;
}

// The declared media type for a response content type: the exact type first, then its family range, then any.
function declaredMediaType(content: Json, contentType: string): string | undefined {
  const family = `${contentType.split('/')[0] ?? ''}/*`;
  return [contentType, family, '*/*'].find((candidate) => candidate in content);
}

const isJsonType = (mediaType: string): boolean => mediaType === 'application/json' || mediaType.endsWith('+json');

function checkBody(response: Json, pointer: string, body: unknown, headers: Map<string, string>): string[] {
  const content = response.content as Json | undefined;
  const empty = body === undefined || body === null || body === '';
  if (!content) return empty ? [] : ['body: the document declares no content, but the response has a body'];
  const contentType = headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? 'application/json';
  const mediaType = declaredMediaType(content, contentType);
  if (!mediaType) return [`content-type ${contentType}: not declared (declared: ${Object.keys(content).join(', ')})`];
  // Binary bodies (storage objects) are checked for their declared type only.
  if (!isJsonType(mediaType)) return [];
  const validate = validatorAt(`${pointer}/content/${escapePointerPart(mediaType)}/schema`);
  return validate(body) ? [] : describeErrors('body', validate.errors);
}

/**
 * Throws a readable error unless the response (status, parsed JSON body, headers when given)
 * matches the response the document declares for `method pathTemplate` (e.g. `GET /posts/{id}`).
 * Undeclared statuses fail; required headers are enforced only when `headers` is passed.
 */
export function expectMatchesOpenApi(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
  headers?: HeaderSource,
): void {
  const { doc } = load();
  const label = `${method.toUpperCase()} ${pathTemplate} → ${status}`;
  const operationPointer = `/paths/${escapePointerPart(pathTemplate)}/${method.toLowerCase()}`;
  const operation = at(doc, operationPointer) as Json | undefined;
  if (!operation) throw new Error(`${label}: schemas/openapi.yaml has no operation ${method.toUpperCase()} ${pathTemplate}`);
  const responses = operation.responses as Json;
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in responses);
  if (!key) {
    throw new Error(`${label}: status not documented (documented: ${Object.keys(responses).join(', ')})`);
  }
  const response = deref(doc, `${operationPointer}/responses/${key}`);
  const headerValues = headerMap(headers);
  const problems = [
    ...(headers ? checkHeaders(response.node, response.pointer, headerValues) : []),
    ...checkBody(response.node, response.pointer, body, headerValues),
  ];
  if (problems.length > 0) {
    const excerpt = JSON.stringify(body)?.slice(0, BODY_EXCERPT_CHARS) ?? String(body);
    throw new Error(`${label} does not match schemas/openapi.yaml:\n  ${problems.join('\n  ')}\nbody: ${excerpt}`);
  }
}

/**
 * `expectMatchesOpenApi` for an answer that belongs to no operation (a method a known path does
 * not have): the document describes it under `x-postsync-unrouted-responses`, by status.
 */
export function expectMatchesUnroutedResponse(status: number, body: unknown, headers: HeaderSource): void {
  const pointer = `/x-postsync-unrouted-responses/${status}`;
  const response = deref(load().doc, pointer);
  const headerValues = headerMap(headers);
  const problems = [...checkHeaders(response.node, response.pointer, headerValues), ...checkBody(response.node, response.pointer, body, headerValues)];
  if (problems.length > 0) throw new Error(`unrouted ${status} does not match schemas/openapi.yaml:\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(body)}`);
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The parsed document (shared; do not mutate). */
export function openApiDocument(): Readonly<Record<string, unknown>> {
  return load().doc;
}

/**
 * Compiles the schema of every documented response body and header, so a broken `$ref` or
 * keyword fails at once instead of in whichever test first meets that response. Returns how
 * many schemas were compiled.
 */
export function compileAllResponseSchemas(): number {
  const { doc } = load();
  let compiled = 0;
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of METHODS.filter((name) => name in (item as Json))) {
      const responses = ((item as Json)[method] as Json).responses as Json;
      for (const status of Object.keys(responses)) {
        const response = deref(doc, `/paths/${escapePointerPart(path)}/${method}/responses/${status}`);
        for (const mediaType of Object.keys((response.node.content ?? {}) as Json).filter(isJsonType)) {
          validatorAt(`${response.pointer}/content/${escapePointerPart(mediaType)}/schema`);
          compiled += 1;
        }
        for (const name of Object.keys((response.node.headers ?? {}) as Json)) {
          validatorAt(`${deref(doc, `${response.pointer}/headers/${escapePointerPart(name)}`).pointer}/schema`);
          compiled += 1;
        }
      }
    }
  }
  return compiled;
}
