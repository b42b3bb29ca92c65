// Renders docs/commands.md from the CLI's own commander definitions (cli/registry.ts): every
// command, its arguments, its options with their help and defaults, and the text its --help
// shows after them. Pure: it takes the program and returns the page, so the docs test can
// compare a fresh rendering with the committed page.

const HEADER = `# Command reference

Generated from the commands' own definitions by \`npm run docs:commands\`: do not edit by hand.
Every command also prints this with \`postsync <command> --help\`. Task-oriented pages are in
[docs/](README.md).
`;

/** The page for \`program\` (a commander Command on which registerCommands ran). */
export function commandsPage(program) {
  const commands = leafCommands(program);
  const sections = [HEADER, indexSection(commands), globalSection(program), ...commands.map(commandSection)];
  return `${sections.join('\n').trimEnd()}\n`;
}

function leafCommands(program) {
  const all = [];
  const visit = (command, path) => {
    for (const sub of command.commands) {
      const name = [...path, sub.name()];
      if (sub.commands.length > 0) visit(sub, name);
      else all.push({ command: sub, name: name.join(' ') });
    }
  };
  visit(program, []);
  return all;
}

function indexSection(commands) {
  const rows = commands.map(({ command, name }) => `| [\`${name}\`](#postsync-${name.replace(/ /g, '-')}) | ${cell(command.description())} |`);
  return ['| Command | What it does |', '|---|---|', ...rows, ''].join('\n');
}

function globalSection(program) {
  return [
    '## Global options',
    '',
    'They go before or after the command: `postsync -C examples plan` and `postsync plan -C examples` are the same.',
    '',
    optionsTable(program.options),
    '',
  ].join('\n');
}

function commandSection({ command, name }) {
  const parts = [`## \`postsync ${name}\``, '', `${sentence(command.description())}`, '', '```text', `postsync ${name} ${command.usage()}`.trimEnd(), '```', ''];
  if (command.registeredArguments.length > 0) parts.push(argumentsTable(command.registeredArguments), '');
  const options = command.options.filter((option) => !option.hidden);
  if (options.length > 0) parts.push(optionsTable(options), '');
  const after = helpAfter(command);
  if (after !== '') parts.push('```text', after, '```', '');
  return parts.join('\n');
}

function argumentsTable(args) {
  const rows = args.map((arg) => `| \`${arg.required ? '<' : '['}${arg.name()}${arg.variadic ? '...' : ''}${arg.required ? '>' : ']'}\` | ${cell(arg.description)} |`);
  return ['| Argument | Meaning |', '|---|---|', ...rows].join('\n');
}

function optionsTable(options) {
  const rows = options.map((option) => `| \`${option.flags}\` | ${cell(option.description)}${defaultOf(option)}${option.mandatory ? ' (required)' : ''} |`);
  return ['| Option | Meaning |', '|---|---|', ...rows].join('\n');
}

function defaultOf(option) {
  const choices = option.argChoices ? ` (one of ${option.argChoices.map((choice) => `\`${choice}\``).join(', ')})` : '';
  if (option.negate || option.defaultValue === undefined) return choices;
  return `${choices} (default: \`${String(option.defaultValue)}\`)`;
}

/** What `--help` prints after the options (addHelpText('after', …)), or ''. */
function helpAfter(command) {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: () => {} });
  const base = command.helpInformation();
  command.outputHelp();
  return text.slice(text.indexOf(base) + base.length).trim();
}

function sentence(text) {
  const trimmed = text.trim();
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? '' : '.'}`;
}

/** A table cell: pipes escaped, one line. */
function cell(text) {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
