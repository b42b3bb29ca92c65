import { relativePosix } from '../text/paths.js';
import type { ContentSnapshot } from './content-snapshot.js';
import type { FileChange } from './events.js';
import type { WatchScope } from './watch-scope.js';
import type { Work } from './work-queue.js';

/** What the plan event of a batch names, and whether it is shown when the plan did not move. */
export class BatchReport {
  /** The changes the event names (`PlanTrigger.files`). */
  readonly files: FileChange[] = [];
  /** Project-relative files the batch touched: their changes lead the delta. */
  readonly affected = new Set<string>();
  /** Files no post references (a file copied into a media folder, an editor's backup): named only if the plan moved. */
  readonly quiet: FileChange[] = [];
  mustShow: boolean;

  constructor(mustShow: boolean) {
    this.mustShow = mustShow;
  }

  /** The event names `change` (null: a file that came and went within the burst, named by nothing). */
  show(change: FileChange | null): void {
    if (change === null) return;
    this.files.push(change);
    this.affected.add(change.file);
    this.mustShow = true;
  }
}

/** What a batch reads again before it plans. */
export class BatchReads {
  /** Post files (absolute) to read again. */
  readonly files: string[] = [];
  /** Content folders (absolute) added or removed: their files are found again. */
  readonly folders: string[] = [];
  /** Every file is read again (`r`, or postsync.yaml changed). */
  all: boolean;
  /** The state file is read again. */
  state: boolean;

  constructor({ all, state }: { all: boolean; state: boolean }) {
    this.all = all;
    this.state = state;
  }
}

/** One batch of work as the session gathers it, path by path, before anything is read. */
export interface Batch {
  report: BatchReport;
  reads: BatchReads;
}

/**
 * What the work asks for before any file event: `r` reads everything again and is always shown;
 * after an apply, the state is read again and the plan shown. (The interval's posts whose time may
 * have come are the session's to add: it keeps the time checked.)
 */
export function startBatch(work: Work): Batch {
  return {
    report: new BatchReport(work.refresh === 'manual' || work.afterApply),
    reads: new BatchReads({ all: work.refresh === 'manual', state: work.afterApply }),
  };
}

/** A post file saved, added or removed: it is read again, and named. */
export function postChanged(path: string, change: FileChange | null, batch: Batch): void {
  batch.reads.files.push(path);
  batch.report.show(change);
}

/** A folder of the content folder added or removed: its files are found again, and it is named. */
export function folderChanged(path: string, change: FileChange | null, batch: Batch): void {
  batch.reads.folders.push(path);
  batch.report.show(change);
}

/**
 * Any other file (a media file, a snippet, a file in a media folder): the posts using it are read
 * again, and the posts with errors (one may wait for this very file). Named when a post uses it or
 * it is a media file; else, while posts wait, only if the plan moved.
 */
export function mediaChanged(path: string, change: FileChange | null, batch: Batch, session: { content: ContentSnapshot; scope: WatchScope; root: string }): void {
  const users = session.content.filesUsingMedia(path);
  const waiting = session.content.filesWithErrors();
  batch.reads.files.push(...users, ...waiting);
  if (users.length > 0 || session.scope.isMediaFile(path)) {
    batch.report.show(change);
    for (const user of users) batch.report.affected.add(relativePosix(session.root, user));
  } else if (change !== null && waiting.length > 0) {
    batch.report.quiet.push(change);
  }
}
