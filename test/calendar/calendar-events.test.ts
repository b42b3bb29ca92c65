import { describe, expect, it } from 'vitest';
import { CalendarVersions, sameJson, type PostsDelta } from '../../src/calendar/calendar-events.js';
import { desired, shape } from '../helpers/fixtures.js';
import { calendarFor, launchDay as launch, sseEventOf } from './fixtures.js';

/** The name, id and data of one event `next` returned. */
const parsed = (event: string | null) => sseEventOf(event!.trimEnd())!;
const later = (text: string) => desired('later', shape({ content: text }));

describe('CalendarVersions', () => {
  it('numbers each calendar, sends the first whole and then only what changed', () => {
    const versions = new CalendarVersions();
    expect([versions.version, versions.whole()]).toEqual([0, '']);
    const first = parsed(versions.next(calendarFor({ posts: [launch('Launch day'), later('Later on')] }), { wanted: true }));
    expect([first.name, first.id, versions.version]).toEqual(['calendar', '1', 1]);

    const second = parsed(versions.next(calendarFor({ posts: [launch('Launch day'), later('Later on, edited'), desired('new', shape({ content: 'New' }))] }), { wanted: true }));
    expect([second.name, second.id]).toEqual(['posts', '2']);
    const delta = second.data as PostsDelta;
    expect([delta.base, delta.order, delta.changed.map((post) => post.key)]).toEqual([1, ['launch', 'later', 'new'], ['later', 'new']]);
    expect(delta.calendar).not.toHaveProperty('posts');

    const removed = parsed(versions.next(calendarFor({ posts: [launch('Launch day')] }), { wanted: true })).data as PostsDelta;
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
