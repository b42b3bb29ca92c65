import { describe, expect, it } from 'vitest';
import { CalendarVersions, sameJson, type PostsDelta } from '../../src/calendar/calendar-events.js';
import { calendarFor, desired, shape } from './fixtures.js';

/** The name, id and data of one server-sent event. */
function parsed(event: string): { name: string; id: string; data: unknown } {
  const [name, id, data] = event.trimEnd().split('\n').map((line) => line.slice(line.indexOf(': ') + 2));
  return { name: name!, id: id!, data: JSON.parse(data!) };
}

const launch = (text: string) => desired('launch', shape({ content: text, scheduledAt: '2027-02-03T08:00:00.000Z' }));
const later = (text: string) => desired('later', shape({ content: text }));

describe('CalendarVersions', () => {
  it('numbers each calendar, sends the first whole and then only what changed', () => {
    const versions = new CalendarVersions();
    expect([versions.version, versions.whole()]).toEqual([0, '']);
    const first = parsed(versions.next(calendarFor({ posts: [launch('Launch day'), later('Later on')] })));
    expect([first.name, first.id, versions.version]).toEqual(['calendar', '1', 1]);

    const second = parsed(versions.next(calendarFor({ posts: [launch('Launch day'), later('Later on, edited'), desired('new', shape({ content: 'New' }))] })));
    expect([second.name, second.id]).toEqual(['posts', '2']);
    const delta = second.data as PostsDelta;
    expect([delta.base, delta.order, delta.changed.map((post) => post.key)]).toEqual([1, ['launch', 'later', 'new'], ['later', 'new']]);
    expect(delta.calendar).not.toHaveProperty('posts');

    const removed = parsed(versions.next(calendarFor({ posts: [launch('Launch day')] }))).data as PostsDelta;
    expect([removed.order, removed.changed]).toEqual([['launch'], []]);
    expect(parsed(versions.whole())).toMatchObject({ name: 'calendar', id: '3' });
  });
});

describe('sameJson', () => {
  it('compares JSON values, leaving out keys whose value is undefined, as JSON.stringify does', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
  });
});
