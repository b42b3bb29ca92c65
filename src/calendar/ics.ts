import { createHash } from 'node:crypto';
import { captionOf, type CalendarAccount, type CalendarModel, type CalendarPost } from './model.js';

/** How long an event lasts in a calendar app: a post is an instant, but a zero-length event is hard to see. */
const EVENT_MINUTES = 15;
const SUMMARY_LENGTH = 80;

/**
 * The scheduled posts of a calendar as an iCalendar feed (RFC 5545): one VEVENT per post with a
 * time (posts the plan deletes are left out), in UTC, with its text and accounts. Each event's
 * UID is a digest of `scope` (which API) and the post key: the same post keeps its UID from one
 * feed to the next, so subscribers see it move rather than appear twice.
 */
export function renderIcs(model: CalendarModel, options: { scope: string }): string {
  const accounts = new Map(model.accounts.map((account) => [account.id, account]));
  const stamp = icsTime(model.generatedAt);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//postsync//content calendar//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(`Content calendar (${model.target.replace(/^Target: /, '')})`)}`,
    `X-WR-TIMEZONE:${text(model.timezone)}`,
  ];
  for (const shown of model.posts) {
    if (shown.slot === null || shown.overlay === 'deleted') continue;
    const post = { ...shown, slot: shown.slot };
    const labels = post.targets.map((target) => accountLabel(target.account, target.label, accounts));
    const start = Date.parse(post.slot.at);
    lines.push(
      'BEGIN:VEVENT',
      `UID:${uidOf(options.scope, post.key)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${icsTime(post.slot.at)}`,
      `DTEND:${icsTime(new Date(start + EVENT_MINUTES * 60_000).toISOString())}`,
      `SUMMARY:${text(summaryOf(post, labels))}`,
      `DESCRIPTION:${text(descriptionOf(post, labels))}`,
      ...(labels.length === 0 ? [] : [`CATEGORIES:${labels.map(text).join(',')}`]),
      // Not on the remote yet (the plan creates it): tentative.
      `STATUS:${post.status === null ? 'TENTATIVE' : 'CONFIRMED'}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

/** The event UID of a post: stable for a post key on one API. */
export function uidOf(scope: string, key: string): string {
  return `${createHash('sha256').update(`${scope}\n${key}`).digest('hex').slice(0, 32)}@postsync`;
}

function accountLabel(id: string, written: string, accounts: ReadonlyMap<string, CalendarAccount>): string {
  const account = accounts.get(id);
  return account?.platform ? `${written} (${account.platform})` : written;
}

function summaryOf(post: CalendarPost, labels: readonly string[]): string {
  const line = post.text.split('\n').find((part) => part.trim() !== '')?.trim() ?? post.key;
  const short = [...line].length > SUMMARY_LENGTH ? `${[...line].slice(0, SUMMARY_LENGTH - 1).join('')}…` : line;
  return labels.length === 0 ? short : `${short} [${post.targets.map((target) => target.label).join(', ')}]`;
}

function descriptionOf(post: CalendarPost, labels: readonly string[]): string {
  const parts = [post.text, '', `Accounts: ${labels.length === 0 ? 'none yet' : labels.join(', ')}`];
  for (const target of post.targets) if (target.override) parts.push(`Text for ${target.label}: ${captionOf(target, post)}`);
  parts.push(`Post: ${post.key}${post.file === null ? '' : ` (${post.file})`}`);
  return parts.join('\n');
}

/** `2027-01-04T08:00:00.000Z` → `20270104T080000Z`. */
function icsTime(instant: string): string {
  return new Date(instant).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** A TEXT value: backslash, semicolon, comma and line breaks escaped (RFC 5545 3.3.11). */
function text(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(/[\\;,]/g, (char) => `\\${char}`).replace(/\n/g, '\\n');
}

/**
 * Folds a content line at 75 octets (RFC 5545 3.1): CRLF and one space before each continuation,
 * never inside a UTF-8 sequence (a character is moved whole to the next line).
 */
function fold(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const out: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const bytes = Buffer.byteLength(char);
    // Continuation lines start with the space, which counts towards their 75.
    if (size + bytes > 75) {
      out.push(current);
      current = ' ';
      size = 1;
    }
    current += char;
    size += bytes;
  }
  out.push(current);
  return out.join('\r\n');
}
