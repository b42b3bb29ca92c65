// `postsync watch --calendar` as a process of its own, for the benchmarks that open its page.
import { spawn } from 'node:child_process';
import { bin } from './paths.mjs';

/**
 * Starts `postsync -C dir [args] watch --calendar` (remote read once an hour: no refresh during a
 * run) and resolves with the page's address, once printed, and a way to stop it (SIGINT, as Ctrl-C).
 */
export async function startWatchCalendar({ dir, args = [], env = {} }) {
  const child = spawn(process.execPath, [bin, '-C', dir, ...args, 'watch', '--calendar', '--refresh', '3600'], { env: { ...process.env, NO_COLOR: '1', CI: '', ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const stop = async () => {
    const exited = new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    child.kill('SIGINT');
    await exited;
  };
  let out = '';
  try {
    const url = await new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const found = /Calendar: (\S+)/.exec(out);
        if (found) resolve(found[1]);
      });
      child.once('exit', (code) => reject(new Error(`watch exited with ${code}:\n${out}`)));
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
