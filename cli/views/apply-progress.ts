import type { ApplyEvent } from '../../src/apply/events.js';
import type { Change } from '../../src/plan/types.js';
import { ACTION_SYMBOLS } from './change-lines.js';
import { bytes } from './format.js';
import type { Style } from './style.js';

/** How progress is shown: a live line on a terminal, plain periodic lines in CI, nothing with --json. */
export type ProgressMode = 'tty' | 'plain' | 'silent';

const PLAIN_INTERVAL_MS = 5_000;

const DONE_VERB: Record<Change['action'], string> = { create: 'created', adopt: 'adopted', update: 'updated', unschedule: 'unscheduled', delete: 'deleted', move: 'moved', noop: 'unchanged', blocked: 'blocked' };

/** Renders apply events to a stream. Upload progress shows per-file and overall bytes. */
export function applyProgressPrinter(options: { stream: NodeJS.WriteStream; style: Style; mode: ProgressMode; totalUploadBytes: number }) {
  const { stream, style, mode } = options;
  const sentByFile = new Map<string, number>();
  let lastPlainLine = 0;
  let liveLine = false;

  const clearLive = () => {
    if (liveLine) stream.write('\r\x1b[K');
    liveLine = false;
  };
  const line = (text: string) => {
    if (mode === 'silent') return;
    clearLive();
    stream.write(`${text}\n`);
  };
  const overall = () => [...sentByFile.values()].reduce((sum, sent) => sum + sent, 0);
  const progress = (path: string, sentBytes: number, totalBytes: number) => {
    const percent = (sent: number, total: number) => (total === 0 ? 100 : Math.floor((sent / total) * 100));
    const text = `  ↑ ${path}: ${bytes(sentBytes)} / ${bytes(totalBytes)} (${percent(sentBytes, totalBytes)}%) · all media ${bytes(overall())} / ${bytes(options.totalUploadBytes)} (${percent(overall(), options.totalUploadBytes)}%)`;
    if (mode === 'tty') {
      stream.write(`\r\x1b[K${text.slice(0, (stream.columns ?? 120) - 1)}`);
      liveLine = true;
    } else if (mode === 'plain' && Date.now() - lastPlainLine >= PLAIN_INTERVAL_MS) {
      lastPlainLine = Date.now();
      stream.write(`${text}\n`);
    }
  };

  return (event: ApplyEvent): void => {
    switch (event.type) {
      case 'upload-start':
        line(`  ↑ ${event.resumed ? 'resuming' : 'uploading'} ${event.upload.path} (${bytes(event.upload.sizeBytes)})`);
        break;
      case 'upload-progress':
        sentByFile.set(event.upload.sha256, event.sentBytes);
        progress(event.upload.path, event.sentBytes, event.upload.sizeBytes);
        break;
      case 'upload-done':
        sentByFile.set(event.upload.sha256, event.upload.sizeBytes);
        line(style.green(`  ✓ uploaded ${event.upload.path}`) + style.dim(` (media ${event.mediaId})`));
        break;
      case 'upload-failed':
        line(style.red(`  ✗ upload of ${event.upload.path} failed: ${event.error.message}`));
        break;
      case 'change-start':
        break;
      case 'change-done': {
        const { change } = event;
        const name = change.fromKey ? `${change.fromKey} → ${change.key}` : change.key;
        line(`  ${ACTION_SYMBOLS[change.action]} ${DONE_VERB[change.action]} ${name}${event.postId ? style.dim(` (${event.postId})`) : ''}`);
        break;
      }
      case 'change-failed':
        line(style.red(`  ✗ ${event.change.action} ${event.change.key} failed: ${event.error.message}`));
        break;
    }
  };
}
