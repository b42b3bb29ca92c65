import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The repository root, with a trailing slash. */
export const REPO_ROOT = new URL('../../', import.meta.url).pathname;

/** README.md, CONTRIBUTING.md and every page under docs/, as paths relative to the root. */
export async function docFiles(): Promise<string[]> {
  const pages = (await readdir(join(REPO_ROOT, 'docs'), { recursive: true })).filter((path) => path.endsWith('.md')).map((path) => `docs/${path}`);
  return ['README.md', 'CONTRIBUTING.md', ...pages.sort()];
}

export function readDoc(path: string): Promise<string> {
  return readFile(join(REPO_ROOT, path), 'utf8');
}

/** A fenced code block: its info string split into words, its text, its line and the `## ` section it is in. */
export interface FencedBlock {
  info: string[];
  text: string;
  line: number;
  section: string;
}

/** Every fenced block (``` or ~~~, three or more) of a Markdown text, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  let section = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (/^## /.test(line)) section = line.slice(3).trim();
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end]!.trimStart().startsWith(fence) && lines[end]!.trim().replace(new RegExp(`^${fence[0]}+`), '') === '')) body.push(lines[end++]!);
    blocks.push({ info: open[2]!.trim().split(/\s+/).filter(Boolean), text: `${body.join('\n')}\n`, line: index + 1, section });
    index = end;
  }
  return blocks;
}

/** `name=value` of a block's info string, or undefined. */
export function attribute(block: FencedBlock, name: string): string | undefined {
  const word = block.info.find((part) => part.startsWith(`${name}=`));
  return word?.slice(name.length + 1);
}

/**
 * A Markdown text without its fenced blocks, and without its inline code spans (links are read
 * from this) or with only their backticks removed (`keepCode`: headings are read from this).
 */
export function proseOf(markdown: string, options: { keepCode?: boolean } = {}): string {
  const lines = markdown.split('\n');
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && open) fence = open[1]!;
    else if (fence !== null && line.trimStart().startsWith(fence) && line.trim().replace(new RegExp(`^${fence[0]}+`), '') === '') fence = null;
    else if (fence === null) kept.push(line.replace(/(`+)([\s\S]*?)\1/g, (_span, _ticks, code: string) => (options.keepCode ? code : '')));
  }
  return kept.join('\n');
}
