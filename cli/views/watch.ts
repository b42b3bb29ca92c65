import type { ApplyResult } from '../../src/apply/events.js';
import { PostsyncError } from '../../src/errors.js';
import type { WatchEvent, WatchingSummary } from '../../src/watch/events.js';
import { applyProgressPrinter } from './apply-progress.js';
import { renderDiagnostics } from './diagnostics.js';
import { draftLines, renderDrafts } from './drafts.js';
import { plural } from './format.js';
import { renderPlan } from './plan-human.js';
import type { Style } from './style.js';
import { clockTime, renderDelta } from './watch-delta.js';
import { joinTerminal, term, type Terminal } from '../../src/text/terminal.js';
import { writerTo } from '../output.js';

export interface WatchPrinterOptions {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
  style: Style;
  /** The target line every plan starts with. */
  label: string;
  /** The project's time zone: times are shown on its clock. */
  timezone: string;
  /** A terminal: each plan clears the screen and redraws it whole. Otherwise lines are appended. */
  redraw: boolean;
}

const DURING: Record<Extract<WatchEvent, { type: 'error' }>['during'], string> = {
  refresh: 're-read the remote data (still planning against the data read before)',
  plan: 'plan',
  apply: 'apply the drafts',
  watch: 'watch the files',
  state: 'read the state file (still using the one read before)',
  config: 'read postsync.yaml',
};

function watchingLine(watching: WatchingSummary, redraw: boolean): Terminal {
  const files = `${plural(watching.postFiles, 'post file')}, ${plural(watching.mediaFiles, 'media file')}`;
  const keys = redraw ? 'Press r to re-read the remote now, q to quit.' : 'Stop with Ctrl-C.';
  return term`Watching ${watching.contentDir}/ (${files}) and postsync.yaml; remote data is re-read every ${watching.refreshSeconds} s. ${keys}`;
}

/** A block after a blank line, or nothing when empty. */
function section(text: Terminal): Terminal {
  return text.toString() === '' ? text : term`\n\n${text}`;
}

function appliedLine(result: ApplyResult): Terminal {
  const count = (action: string) => result.applied.filter((change) => change.action === action).length;
  const line = term`  Drafts applied: ${count('create')} created, ${count('update')} updated; ${plural(result.uploadedFiles, 'media file')} uploaded.`;
  return result.failed.length > 0 ? term`${line} ${result.failed.length} failed (not retried until the post changes).` : line;
}

/** Clears the screen and puts the cursor top left. */
const CLEAR_SCREEN = term`\x1b[2J\x1b[H`;

/** Drafts listed under a watch's plan: its screen is drawn again after every save, and should fit. */
const WATCH_DRAFT_LINES = 20;

/** Renders watch events: the first plan whole, then after every save what changed since. */
export function watchPrinter(options: WatchPrinterOptions): (event: WatchEvent) => void {
  const { style, label, redraw, timezone } = options;
  const out = writerTo(options.out);
  const err = writerTo(options.err);
  const write = (text: Terminal) => out.write(term`${text}\n`);
  const at = (date: Date) => style.bold(term`${clockTime(date)}`);
  let watching: WatchingSummary | null = null;
  let applyProgress: ReturnType<typeof applyProgressPrinter> | null = null;

  return (event) => {
    switch (event.type) {
      case 'started':
        watching = event.watching;
        if (redraw) out.write(CLEAR_SCREEN);
        write(term`${renderPlan(event.plan, { label, style, timezone })}${section(renderDrafts(event.drafts, style, { limit: WATCH_DRAFT_LINES }))}\n\n${style.dim(watchingLine(watching, redraw))}`);
        break;
      case 'plan':
        if (redraw) {
          out.write(CLEAR_SCREEN);
          write(term`${renderPlan(event.plan, { label, style, timezone })}${section(renderDrafts(event.drafts, style, { limit: WATCH_DRAFT_LINES }))}\n\n${renderDelta(event, style, { timezone })}\n\n${style.dim(watchingLine(watching!, redraw))}`);
        } else {
          const saved = new Set(event.trigger.files.map((change) => change.file));
          const drafts = event.drafts.filter((draft) => saved.has(draft.file));
          write(term`\n${joinTerminal([renderDelta(event, style, { timezone }), ...(drafts.length === 0 ? [] : draftLines(drafts, style))], '\n')}`);
        }
        break;
      case 'config-invalid':
        write(term`\n${at(event.at)} postsync.yaml is invalid; the previous settings stay in use until it is fixed:\n${renderDiagnostics(event.diagnostics, style)}`);
        break;
      case 'notice':
        write(term`\n${at(event.at)} ${event.message}`);
        break;
      case 'apply-start': {
        const totalUploadBytes = event.plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
        applyProgress = applyProgressPrinter({ stream: options.out, style, mode: redraw ? 'tty' : 'plain', totalUploadBytes });
        write(term`\n${at(event.at)} applying ${plural(event.plan.changes.length, 'draft change')} (--apply-drafts):`);
        break;
      }
      case 'apply-progress':
        applyProgress?.(event.event);
        break;
      case 'apply-done':
        write(appliedLine(event.result));
        break;
      case 'apply-skipped':
        write(term`\n${at(event.at)} drafts not applied: ${event.reason}`);
        break;
      case 'error': {
        const hint = event.error instanceof PostsyncError && event.error.hint ? term`\n  ${event.error.hint}` : term``;
        err.write(term`${clockTime(event.at)} ${style.red(term`could not ${DURING[event.during]}:`)} ${event.error.message}${hint}\n`);
        break;
      }
    }
  };
}
