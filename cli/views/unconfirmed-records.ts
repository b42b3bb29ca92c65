import type { UnconfirmedRecord } from '../../src/pipeline/confirm-state.js';
import { previewText } from '../../src/text/preview.js';
import { term, type Terminal } from '../../src/text/terminal.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';

const KIND: Record<UnconfirmedRecord['kind'], string> = { posts: 'post', pending: 'pending create', media: 'media', uploads: 'upload' };

/** What `state confirm` would seal: one row per record, what it points at and how the remote has it now. */
export function renderUnconfirmed(records: readonly UnconfirmedRecord[], options: { label: string; style: Style }): Terminal {
  // The key and id come from the state file (a pull request can write them), the status and text
  // from the remote: a person decides from these rows what to seal, so none may rewrite the screen.
  const rows = records.map((record) => [
    term`${record.key}`,
    term`${KIND[record.kind]}`,
    term`${record.remoteId ?? '-'}`,
    term`${record.status ?? '-'}`,
    term`${record.text === null ? '-' : JSON.stringify(previewText(record.text.replace(/\s+/g, ' '), 50))}`,
  ]);
  const table = renderTable([{ header: 'key' }, { header: 'record' }, { header: 'remote id' }, { header: 'status' }, { header: 'text' }], rows, { style: options.style, indent: '  ' });
  const count = `${records.length} ${records.length === 1 ? 'record' : 'records'}`;
  return term`${options.label}\n\n${count} without a valid seal would be confirmed (plans act on them again):\n\n${table}`;
}
