import { Option, type Command } from 'commander';

/**
 * One command of the table: its name and arguments, its help, its options, and what it runs. The
 * handler imports its module only when the command runs, so `postsync --help` loads nothing but
 * commander. A handler returns the exit code (cli/ alone owns exit codes), or nothing for a command
 * that runs until it is stopped.
 */
export interface CommandEntry<Flags = Record<string, never>, Args extends unknown[] = []> {
  name: string;
  /** Each argument as commander writes it (`<base>`, `[planfile]`, `[keys...]`) and its help. */
  args?: readonly (readonly [string, string])[];
  description: string;
  options?: readonly Option[];
  /** The text `--help` shows after the options. */
  helpAfter?: string;
  /** The subcommands of a command that runs none of its own (`state`). */
  subcommands?: readonly CommandEntry<never, never>[];
  run?(call: { args: Args; flags: Flags; command: Command }): Promise<number | void>;
}

/** An entry with its flags and arguments typed, as the table holds it. */
export function entry<Flags = Record<string, never>, Args extends unknown[] = []>(command: CommandEntry<Flags, Args>): CommandEntry<never, never> {
  return command as unknown as CommandEntry<never, never>;
}

/** Adds the commands of `entries` to `parent`, in order. */
export function addCommands(parent: Command, entries: readonly CommandEntry<never, never>[]): void {
  for (const command of entries) {
    const added = parent.command(command.name);
    for (const [name, description] of command.args ?? []) added.argument(name, description);
    added.description(command.description);
    for (const option of command.options ?? []) added.addOption(option);
    if (command.helpAfter !== undefined) added.addHelpText('after', command.helpAfter);
    if (command.subcommands !== undefined) addCommands(added, command.subcommands);
    const { run } = command;
    if (run === undefined) continue;
    added.action(async (...received: unknown[]) => {
      // Commander passes the arguments, then the parsed options, then the command.
      const args = received.slice(0, -2) as never;
      const code = await run.call(command, { args, flags: received.at(-2) as never, command: received.at(-1) as Command });
      if (code !== undefined) process.exitCode = code;
    });
  }
}

/** An option given by its flags and help. */
export function flag(flags: string, description: string): Option {
  return new Option(flags, description);
}

/** `--json`: the one JSON document a command prints instead of its text. */
export function jsonFlag(): Option {
  return flag('--json', 'print one JSON document and nothing else');
}

/** A repeatable option, collected into a list (`--target a --target b`). */
export function repeatable(flags: string, description: string): Option {
  return new Option(flags, description).argParser(collect);
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Help text after the options, one line per entry. */
export function lines(...text: string[]): string {
  return text.join('\n');
}
