import { join } from 'node:path';
import { Command } from 'commander';
import { findCalendars } from '../src/config/find-calendars.js';
import { InputError } from '../src/errors.js';
import { globalOptions } from './context.js';
import { reportFatal } from './fatal.js';
import { styleFor } from './views/style.js';
import { joinTerminal, term, terminalPath } from '../src/text/terminal.js';
import { out } from './output.js';

/**
 * The exit code of `--all`: 1 when any calendar failed (an error, invalid files, a failed change,
 * a held lock: any code but 0 and 2); else 2 when any has changes (`plan --detailed-exitcode`);
 * else 0.
 */
export function combinedExitCode(codes: readonly number[]): number {
  if (codes.some((code) => code !== 0 && code !== 2)) return 1;
  return codes.includes(2) ? 2 : 0;
}

/**
 * `plan --all` and `apply --all`: runs the command once in every folder below the current one
 * (or `-C`) that holds a postsync.yaml, one after the other, each with its own configuration,
 * target, state and lock, under a heading per calendar. A calendar that fails is reported like a
 * single run would report it, and the others still run.
 */
export async function runInEveryCalendar(command: Command, run: (scoped: Command) => Promise<number>, options: { refuse: Record<string, unknown> }): Promise<number> {
  const given = Object.entries(options.refuse).filter(([, value]) => value !== undefined && value !== false).map(([flag]) => flag);
  if (given.length > 0) throw new InputError(`--all runs one ${command.name()} per calendar and cannot be combined with ${given.join(', ')}`, { hint: `Run \`postsync -C <folder> ${command.name()} ${given.join(' ')}\` for one calendar instead.` });
  const globals = globalOptions(command);
  const root = globals.dir ?? process.cwd();
  const calendars = await findCalendars(root);
  if (calendars.length === 0) throw new InputError(`no postsync.yaml below ${root}`, { hint: 'Run --all from the folder that holds your calendar folders.' });
  const style = styleFor(process.stdout, globals);
  const codes: number[] = [];
  for (const [index, calendar] of calendars.entries()) {
    out.write(term`${index === 0 ? term`` : term`\n`}${style.bold(term`── ${terminalPath(calendar.folder)} ──`)}\n`);
    const dir = join(root, calendar.folder);
    codes.push(await run(scopedTo(command, dir)).catch((error: unknown) => reportFatal(error, { projectDir: dir })));
  }
  const failed = calendars.filter((_, index) => codes[index] !== 0 && codes[index] !== 2).map((calendar) => calendar.folder);
  const code = combinedExitCode(codes);
  out.write(term`\n${calendars.length} calendars: ${failed.length === 0 ? 'none failed' : term`${failed.length} failed (${joinTerminal(failed.map(terminalPath), ', ')})`}${codes.includes(2) ? '; some have changes' : ''}.\n`);
  return code;
}

/**
 * The command as it runs with `-C <dir>`: a stand-in whose global options are the given ones with
 * `dir` replaced (commander lets a parent's options win over a child's, so the stand-in gets a
 * parent of its own instead of the program).
 */
function scopedTo(command: Command, dir: string): Command {
  const globals = new Command();
  for (const [name, value] of Object.entries(globalOptions(command))) globals.setOptionValue(name, value);
  globals.setOptionValue('dir', dir);
  const scoped = new Command(command.name());
  scoped.parent = globals;
  return scoped;
}
