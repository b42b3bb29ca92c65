import type { ApplyEvent } from '../../src/apply/events.js';
import type { Change } from '../../src/plan/types.js';
import { ACTION_SYMBOLS, changeName } from './change-lines.js';
import { bytes } from './format.js';
import type { Style } from './style.js';
import { cutTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';
import { writerTo } from '../output.js';

/** How progress is shown: a live line on a terminal, plain periodic lines in CI, nothing with --json. */
export type ProgressMode = 'tty' | 'plain' | 'silent';

const PLAIN_INTERVAL_MS = 5_000;

/** Back to the start of the live line, and erase it. */
const CLEAR_LINE = term`\r\x1b[K`;

const DONE_VERB: Record<Change['action'], string> = { create: 'created', adopt: 'adopted', update: 'updated', unschedule: 'unscheduled', delete: 'deleted', move: 'moved', noop: 'unchanged', blocked: 'blocked' };

/** Renders apply events to a stream. Upload progress shows per-file and overall bytes. */
export function applyProgressPrinter(options: { stream: NodeJS.WriteStream; style: Style; mode: ProgressMode; totalUploadBytes: number }) {
  const { style, mode } = options;
  const writer = writerTo(options.stream);
  const sentByFile = new Map<string, number>();
  let lastPlainLine = 0;
  let liveLine = false;

  const clearLive = () => {
    if (liveLine) writer.write(CLEAR_LINE);
    liveLine = false;
  };
  const line = (text: Terminal) => {
    if (mode === 'silent') return;
    clearLive();
    writer.write(term`${text}\n`);
  };
  const overall = () => [...sentByFile.values()].reduce((sum, sent) => sum + sent, 0);
  const progress = (path: Terminal, sentBytes: number, totalBytes: number) => {
    const percent = (sent: number, total: number) => (total === 0 ? 100 : Math.floor((sent / total) * 100));
    const text = term`  ↑ ${path}: ${bytes(sentBytes)} / ${bytes(totalBytes)} (${percent(sentBytes, totalBytes)}%) · all media ${bytes(overall())} / ${bytes(options.totalUploadBytes)} (${percent(overall(), options.totalUploadBytes)}%)`;
    if (mode === 'tty') {
      writer.write(term`${CLEAR_LINE}${cutTerminal(text, (options.stream.columns ?? 120) - 1)}`);
      liveLine = true;
    } else if (mode === 'plain' && Date.now() - lastPlainLine >= PLAIN_INTERVAL_MS) {
      lastPlainLine = Date.now();
      writer.write(term`${text}\n`);
    }
  };

  return (event: ApplyEvent): void => {
    switch (event.type) {
      case 'upload-start':
        line(term`  ↑ ${event.resumed ? 'resuming' : 'uploading'} ${terminalPath(event.upload.path)} (${bytes(event.upload.sizeBytes)})`);
        break;
      case 'upload-progress':
        sentByFile.set(event.upload.sha256, event.sentBytes);
        progress(terminalPath(event.upload.path), event.sentBytes, event.upload.sizeBytes);
        break;
      case 'upload-done':
        sentByFile.set(event.upload.sha256, event.upload.sizeBytes);
        line(term`${style.green(term`  ✓ uploaded ${terminalPath(event.upload.path)}`)}${style.dim(term` (media ${event.mediaId})`)}`);
        break;
      case 'upload-failed':
        line(style.red(term`  ✗ upload of ${terminalPath(event.upload.path)} failed: ${event.error.message}`));
        break;
      case 'change-start':
        break;
      case 'change-done': {
        const { change } = event;
        line(term`  ${ACTION_SYMBOLS[change.action]} ${DONE_VERB[change.action]} ${changeName(change)}${event.postId ? style.dim(term` (${event.postId})`) : ''}`);
        break;
      }
      case 'change-failed':
        line(style.red(term`  ✗ ${event.change.action} ${event.change.key} failed: ${event.error.message}`));
        break;
    }
  };
}
