import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { terminalText } from '../text/terminal.js';

/**
 * GitHub Actions workflow commands (`::error file=…,line=…::message`). The runner reads them from
 * the step's stdout and stderr, one per line, so line breaks in a message and the characters
 * that delimit properties must be percent-encoded; `%` itself first, so nothing is decoded twice.
 */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value additionally encodes `:` (ends the property list) and `,` (separates properties). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** Only this module holds it: no other module can make a `WorkflowCommand` of a string. */
const MADE_HERE = Symbol('workflow command');

/**
 * One workflow command line, made only by `annotation` (every value in it encoded), and the only
 * thing the writer of our workflow commands takes: a line of text from a file or the remote
 * cannot reach the runner as a command of ours.
 */
export class WorkflowCommand {
  readonly #line: string;

  constructor(key: typeof MADE_HERE, line: string) {
    if (key !== MADE_HERE) throw new TypeError('a WorkflowCommand is made by annotation() of src/actions/workflow-commands.ts');
    this.#line = line;
  }

  toString(): string {
    return this.#line;
  }
}

/** Where an annotation points; `file` is relative to the repository root (GITHUB_WORKSPACE). */
export interface AnnotationProperties {
  file?: string;
  line?: number;
  col?: number;
  title?: string;
}

/**
 * One workflow command line, newline-terminated. Properties without a value are left out. Every
 * other character that could rewrite the log (ESC, bidi marks) is written as a visible escape by
 * the terminal rule; the message's line breaks stay line breaks of the annotation.
 */
export function annotation(level: AnnotationLevel, message: string, properties: AnnotationProperties = {}): WorkflowCommand {
  const list = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${name}=${escapeProperty(terminalText(String(value)))}`);
  const data = message.split('\n').map(terminalText).join('\n');
  return new WorkflowCommand(MADE_HERE, `::${level}${list.length > 0 ? ` ${list.join(',')}` : ''}::${escapeData(data)}\n`);
}

/**
 * A project-relative file as GitHub wants it in an annotation: relative to the repository root,
 * with forward slashes. The project may be a sub-folder of the repository (`working-directory`).
 */
export function workspacePath(file: string, options: { root: string; workspace: string }): string {
  const absolute = resolve(options.root, file);
  const fromWorkspace = relative(options.workspace, absolute);
  const path = fromWorkspace.startsWith('..') || isAbsolute(fromWorkspace) ? absolute : fromWorkspace;
  return path.split(sep).join('/');
}

/** The annotation of one diagnostic: position when known, the code as title, details on more lines. */
export function diagnosticAnnotation(diagnostic: Diagnostic, options: { root: string; workspace: string }): WorkflowCommand {
  const details = [
    diagnostic.message,
    diagnostic.expected === undefined ? undefined : `expected: ${diagnostic.expected}`,
    diagnostic.found === undefined ? undefined : `found: ${diagnostic.found}`,
    diagnostic.hint === undefined ? undefined : `hint: ${diagnostic.hint}`,
  ]
    .filter((line): line is string => line !== undefined)
    .map(terminalText);
  return annotation(diagnostic.severity, details.join('\n'), {
    file: diagnostic.file === undefined ? undefined : workspacePath(diagnostic.file, options),
    line: diagnostic.file === undefined ? undefined : diagnostic.line,
    col: diagnostic.file === undefined || diagnostic.line === undefined ? undefined : diagnostic.column,
    title: `postsync ${diagnostic.code}`,
  });
}
