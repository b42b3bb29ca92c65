import { closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { decodeUtf8File } from '../text/decode.js';
import { schemaCheck } from '../text/schema-errors.js';
import { sortDiagnostics } from '../text/ordering.js';
import { readTextFileBytes, TEXT_FILE_LIMIT } from '../text/text-file-bytes.js';
import type { YamlSource } from '../text/yaml-source.js';

/** postsync.yaml as written (after schema validation the fields have these types). */
export interface RawConfig {
  api?: { url?: string };
  content?: string;
  snippets?: string;
  prune?: boolean;
  state?: string | { file?: string; home?: 'file' | 'branch'; branch?: string };
  timezone?: string;
  accounts?: Record<string, string>;
  /** Read by rules-section.ts, slots-section.ts and vars-section.ts, which check their shapes. */
  rules?: Record<string, unknown>;
  slots?: Record<string, unknown>;
  vars?: Record<string, unknown>;
  hashtags?: Record<string, unknown>;
}

export interface ConfigFile {
  /** `postsync.yaml`, `postsync.yml`, or null when the project has neither. */
  file: string | null;
  data: RawConfig;
  locate: YamlSource['locate'];
  diagnostics: Diagnostic[];
}

export const CONFIG_FILE_NAMES = ['postsync.yaml', 'postsync.yml'] as const;

const KEY_LIKE_FIELDS = /^(key|apikey|api_key|token|secret)$/i;

/** Reads and validates postsync.yaml (or .yml) at the project root; a missing file is an empty config. */
export async function readConfigFile(root: string): Promise<ConfigFile> {
  const read = readConfigBytes(root);
  if ('diagnostics' in read) return read;
  return parseConfigFile(read.file, read.bytes);
}

const nowhere: YamlSource['locate'] = () => undefined;

function readConfigBytes(root: string): { file: string; bytes: Buffer } | ConfigFile {
  const found: { file: string; bytes: Buffer | { found: string } }[] = [];
  for (const name of CONFIG_FILE_NAMES) {
    const bytes = readBounded(join(root, name));
    if (bytes !== undefined) found.push({ file: name, bytes });
  }
  if (found.length === 0) return { file: null, data: {}, locate: nowhere, diagnostics: [] };
  const { file, bytes } = found[0]!;
  if (found.length > 1) {
    return { file, data: {}, locate: nowhere, diagnostics: [{ severity: 'error', code: 'config-ambiguous', message: 'both postsync.yaml and postsync.yml exist', file: 'postsync.yml', hint: 'Keep one of them.' }] };
  }
  if (!Buffer.isBuffer(bytes)) {
    const diagnostic: Diagnostic = { severity: 'error', code: 'file-too-large', message: `${file} is too large for a configuration file`, file, expected: TEXT_FILE_LIMIT, found: bytes.found, hint: `${file} holds settings only; keep long texts in snippet files.` };
    return { file, data: {}, locate: nowhere, diagnostics: [diagnostic] };
  }
  return { file, bytes };
}

/** The file's bytes, or how large it is when over the size rule of text files; undefined when it does not exist. */
function readBounded(path: string): Buffer | { found: string } | undefined {
  let fd;
  try {
    // O_NONBLOCK: a FIFO named postsync.yaml cannot hang the open.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const read = readTextFileBytes(fd);
    return 'bytes' in read ? read.bytes : read.tooLarge;
  } finally {
    closeSync(fd);
  }
}

/** Decodes, parses and schema-checks the bytes; loads the YAML parser (only here). */
async function parseConfigFile(file: string, bytes: Buffer): Promise<ConfigFile> {
  const [{ parseYamlSource }, { validateConfig }] = await Promise.all([import('../text/yaml-source.js'), import('../generated/content-validators.js')]);
  const decoded = decodeUtf8File(bytes, file);
  if (!decoded.ok) return { file, data: {}, locate: nowhere, diagnostics: [decoded.diagnostic] };
  const source = parseYamlSource(decoded.text, file);
  if (source.diagnostics.some((d) => d.severity === 'error')) return { file, data: {}, locate: source.locate, diagnostics: source.diagnostics };
  // An empty file (or only comments) is an empty config.
  const data = source.value ?? {};
  const diagnostics = sortDiagnostics([
    ...source.diagnostics,
    ...schemaCheck(validateConfig)(data, {
      file,
      locate: source.locate,
      unknownFieldHint: (name) =>
        KEY_LIKE_FIELDS.test(name) ? 'The API key is read from the POSTSYNC_API_KEY environment variable only; never write it in a committed file.' : undefined,
    }),
  ]);
  return { file, data: data as RawConfig, locate: source.locate, diagnostics };
}
