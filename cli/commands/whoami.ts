import { out } from '../output.js';
import type { Command } from 'commander';
import { globalOptions, openProject } from '../context.js';
import { renderWhoami, whoamiReport, type WhoamiView } from '../views/whoami.js';
import { term, terminalJson } from '../../src/text/terminal.js';

export interface WhoamiFlags {
  json?: boolean;
}

/** Prints who the API key is: target, project, expiry and permissions (never the key). No request beyond the session read that connecting makes. */
export async function runWhoami(flags: WhoamiFlags, command: Command): Promise<number> {
  const { config, connection, style } = await openProject(globalOptions(command));
  try {
    const view: WhoamiView = { session: connection.session, target: connection.project, keySource: config.api.key !== null ? 'POSTSYNC_API_KEY' : 'local-demo-key' };
    if (flags.json) out.write(terminalJson(whoamiReport(view)));
    else out.write(term`${renderWhoami(view, { label: connection.label, style, now: new Date(), timezone: config.timezone })}\n`);
    return 0;
  } finally {
    await connection.close();
  }
}
