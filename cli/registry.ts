import type { Command } from 'commander';

/**
 * Declares every command with its options. Each action imports its module only when that command
 * runs, so `postsync --version` and `--help` load nothing but commander.
 * Commands are added here as they land, one `cli/commands/<name>.ts` each.
 */
export function registerCommands(program: Command): void {
  void program;
}
