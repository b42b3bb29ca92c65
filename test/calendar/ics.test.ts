import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { renderIcs, uidOf } from '../../src/calendar/ics.js';
import { desired, livePost, owning, PHOTO, shape, SHORT } from '../helpers/fixtures.js';
import { calendarFor } from './fixtures.js';

const awkward = 'Line one; with, commas\\and a backslash\nLine two: Ünïcödé ☕ '.repeat(4);

function feed() {
  const gone = shape({ scheduledAt: '2027-01-09T10:00:00.000Z' });
  const model = calendarFor({
    posts: [
      desired('launch', shape({ scheduledAt: '2027-01-04T08:00:00.000Z', content: awkward, targets: [{ socialAccountId: PHOTO, options: {} }, { socialAccountId: SHORT, contentOverride: 'Short, sweet', options: {} }] })),
      desired('later', shape({ scheduledAt: '2027-02-01T16:30:00.000Z', content: 'February' })),
      desired('draft', shape({ content: 'No time yet' })),
    ],
    remote: [livePost('p9', gone)],
    owned: owning({ gone: ['p9', gone] }),
  });
  return { model, text: renderIcs(model, { scope: 'local' }) };
}

describe('the iCalendar feed', () => {
  it('is RFC 5545 text: CRLF line ends, lines folded at 75 octets', () => {
    const { text } = feed();
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.split('\r\n').slice(0, -1);
    expect(lines.every((line) => !line.includes('\n') && Buffer.byteLength(line) <= 75)).toBe(true);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
  });

  it('parses with ical.js: one event per scheduled post, in UTC, with its text, accounts and a stable UID', () => {
    const { model, text } = feed();
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    const scheduled = model.posts.filter((post) => post.slot !== null && post.overlay !== 'deleted');
    expect(events.map((event) => event.uid)).toEqual(scheduled.map((post) => uidOf('local', post.key)));
    for (const [index, event] of events.entries()) {
      const post = scheduled[index]!;
      expect(event.startDate.toJSDate().toISOString()).toBe(post.slot!.at);
      expect(event.startDate.zone.tzid).toBe('UTC');
      expect(event.description).toContain(post.text);
    }
    const launch = events[0]!;
    expect(launch.summary).toBe('Line one; with, commas\\and a backslash [brand-photo, brand-short]');
    expect(launch.description).toContain('Accounts: brand-photo, brand-short');
    expect(launch.description).toContain('Text for brand-short: Short, sweet');
    expect(launch.component.getFirstProperty('categories')!.getValues()).toEqual(['brand-photo', 'brand-short']);
    // Not on the remote yet: tentative.
    expect(launch.component.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect(uidOf('local', 'launch')).toBe(uidOf('local', 'launch'));
    expect(uidOf('local', 'launch')).not.toBe(uidOf('https://api.example.com/public/v1', 'launch'));
  });
});
