import type { Origin } from '../../src/content/types.js';
import type { Change } from '../../src/plan/types.js';
import { joinTerminal, term, type Terminal } from '../../src/text/terminal.js';

/** A piece of the words for an origin: a name (a path, a var), marked as code where the medium can, or plain words. */
export interface OriginPiece {
  text: string;
  name?: true;
}

/**
 * The origins of one changed field worth naming beside it, as pieces per origin: none when the
 * field comes from the post file alone (the change names its file already) or is not attributed.
 */
export function fieldOriginPieces(change: Pick<Change, 'origins'>, field: string): OriginPiece[][] {
  const sources = (change.origins ?? []).filter((origin) => origin.field === field).map((origin) => origin.source);
  if (sources.every((source) => source.kind === 'file')) return [];
  return sources.map(originPieces);
}

/** `snippets/signature.md`, `vars.campaign.name in postsync.yaml`, `the repeat rule`, `house rule campaign-links (UTM)`. */
function originPieces(source: Origin): OriginPiece[] {
  switch (source.kind) {
    case 'file':
    case 'snippet':
      return [{ text: source.path, name: true }];
    case 'var':
      return [{ text: `vars.${source.name}`, name: true }, { text: ' in ' }, { text: 'postsync.yaml', name: true }];
    case 'hashtags':
      return [{ text: `hashtags.${source.name}`, name: true }, { text: ' in ' }, { text: 'postsync.yaml', name: true }];
    case 'repeat':
      return [{ text: 'the repeat rule' }];
    case 'house-rule':
      return [{ text: 'house rule ' }, { text: source.name, name: true }, { text: ' (UTM)' }];
  }
}

/** ` (via a, b)` from the pieces of each origin, for the terminal; empty without origins. */
export function viaText(origins: readonly OriginPiece[][]): Terminal {
  return origins.length === 0 ? term`` : term` (via ${joinTerminal(origins.map((pieces) => term`${pieces.map((piece) => piece.text).join('')}`), ', ')})`;
}
