import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { formatConfigDiagnostic, InvalidConfigError, loadConfig } from '../../src/config/index.js';
import { wallMinutes } from '../../src/zoned-time/index.js';
import { testdir } from '../helpers/testdir.js';

const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';
const SHORT = '8b3e4f50-2c77-4e7b-9f20-5dab7f3c9a03';
const HEAD = `timezone: Europe/Berlin\naccounts:\n  brand-photo: ${PHOTO}\n  brand-short: ${SHORT}\n`;

async function configOf(yaml: string) {
  return loadConfig({ cwd: await testdir({ 'postsync.yaml': HEAD + yaml }), env: {} });
}

async function problemsOf(yaml: string): Promise<Diagnostic[]> {
  const error = await configOf(yaml).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidConfigError);
  return [...(error as InvalidConfigError).diagnostics];
}

/** `line:column code — hint` of each problem, lines counted from the first line after HEAD. */
function brief(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${(d.line ?? 0) - 4}:${d.column} ${d.code}${d.hint === undefined ? '' : ` — ${d.hint}`}`);
}

describe('postsync.yaml rules:, slots:, vars:, hashtags:', () => {
  it('reads every kind of rule into typed rules, in file order', async () => {
    const config = await configOf(
      [
        'rules:',
        '  nights:',
        '    quietHours: { from: "22:00", to: "7:00" }',
        '    severity: warning',
        '    accounts: [brand-photo]',
        '  gap: { minGap: 1h30m, platforms: photoC }',
        '  daily: { maxPerDay: 3 }',
        '  weekly: { maxPerWeek: 10 }',
        '  holidays:',
        '    blackout: [2026-12-25, { from: 2027-01-10, to: "2027-01-20 12:00", reason: product embargo }]',
        '  banned: { bannedWords: [cheap, "free shipping", cheap] }',
        '  ad-label:',
        '    requiredWords: "#ad"',
        '    when: { shortBBrandContent: true }',
        '  alt: { imageAlt: true }',
        '  utm:',
        '    utm: { source: "{platform}", campaign: "{file.dir}", append: true, domains: [Acme.Coffee] }',
        '',
      ].join('\n'),
    );
    const all = { accounts: null, platforms: null, when: null };
    expect(config.rules).toEqual([
      { name: 'nights', kind: 'quietHours', severity: 'warning', scope: { ...all, accounts: [PHOTO] }, from: 22 * 60, to: 7 * 60 },
      { name: 'gap', kind: 'minGap', severity: 'error', scope: { ...all, platforms: ['photoC'] }, minutes: 90 },
      { name: 'daily', kind: 'maxPerDay', severity: 'error', scope: all, limit: 3 },
      { name: 'weekly', kind: 'maxPerWeek', severity: 'error', scope: all, limit: 10 },
      {
        name: 'holidays',
        kind: 'blackout',
        severity: 'error',
        scope: all,
        periods: [
          { from: wallMinutes({ date: { year: 2026, month: 12, day: 25 }, minute: 0 }), to: wallMinutes({ date: { year: 2026, month: 12, day: 26 }, minute: 0 }), label: '2026-12-25' },
          { from: wallMinutes({ date: { year: 2027, month: 1, day: 10 }, minute: 0 }), to: wallMinutes({ date: { year: 2027, month: 1, day: 20 }, minute: 720 }), label: '2027-01-10 – 2027-01-20 12:00', reason: 'product embargo' },
        ],
      },
      { name: 'banned', kind: 'bannedWords', severity: 'error', scope: all, words: ['cheap', 'free shipping'] },
      { name: 'ad-label', kind: 'requiredWords', severity: 'error', scope: { ...all, when: { shortBBrandContent: true } }, words: ['#ad'] },
      { name: 'alt', kind: 'imageAlt', severity: 'error', scope: all },
      { name: 'utm', kind: 'utm', severity: 'error', scope: all, params: { utm_source: '{platform}', utm_campaign: '{file.dir}' }, append: true, domains: ['acme.coffee'] },
    ]);
    expect(Object.isFrozen(config.rules) && Object.isFrozen(config.rules[0]!.scope)).toBe(true);
  });

  it('reads slots per account id (aliases merged, sorted, each once), vars and hashtag sets', async () => {
    const config = await configOf(
      [
        'slots:',
        '  brand-photo: ["Thu 17:30", "Mon 09:00"]',
        `  ${PHOTO.toUpperCase()}: ["mon 9:00", "weekdays 08:30"]`,
        'vars:',
        '  campaign: { url: "https://acme.coffee/winter", year: 2027, live: true }',
        '  shop: https://acme.coffee',
        'hashtags:',
        '  coffee: "#coffee  #roastery"',
        '  winter: ["#winter", "#blend"]',
        '',
      ].join('\n'),
    );
    const slot = (weekday: number, time: string) => ({ weekday, minute: Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) });
    expect(config.slots).toEqual({ [PHOTO]: [slot(1, '08:30'), slot(1, '09:00'), slot(2, '08:30'), slot(3, '08:30'), slot(4, '08:30'), slot(4, '17:30'), slot(5, '08:30')] });
    expect(config.vars).toEqual({ campaign: { url: 'https://acme.coffee/winter', year: '2027', live: 'true' }, shop: 'https://acme.coffee' });
    expect(config.hashtags).toEqual({ coffee: '#coffee #roastery', winter: '#winter #blend' });
  });

  it('lists every problem with its position, what was found and a hint (did-you-mean where it helps)', async () => {
    const problems = await problemsOf(
      [
        'vars:', // 1
        '  file: x',
        'hashtags:',
        '  bad: "coffee #ok"',
        'slots:', // 5
        '  brand-photo: ["Mun 09:00", "Mon 9am"]',
        '  brand-fotoo: ["Mon 09:00"]',
        'rules:',
        '  nights:',
        '    quietHours: { from: "22:00", to: "22:00" }', // 10
        '    accounts: [brand-phot]',
        '  gap: { minGap: 2 fortnights }',
        '  two: { maxPerDay: 3, maxPerWeek: 10 }',
        '  none: { severity: warning }',
        '  typo: { quietHour: { from: "22:00", to: "07:00" } }', // 15
        '  holidays: { blackout: [2026-02-30, { from: 2027-01-10, to: 2027-01-05 }, "2027-01-01 10:00"] }',
        '  utm: { utm: { source: "{platfrom}" } }',
        '  gap-when: { minGap: 2h, when: { format: feed } }',
        '  clock: { quietHours: { from: "25:00", to: "07:00" } }',
        '  sev: { imageAlt: true, severity: fatal }', // 20
        '',
      ].join('\n'),
    );
    expect(brief(problems)).toEqual([
      '2:3 var-shadows-built-in — postsync fills in `{{ file… }}` itself; rename this group, e.g. `my-file`.',
      '4:8 invalid-hashtag — Write `#coffee`.',
      '6:17 invalid-slot — did you mean `Mon`?',
      '6:30 invalid-slot — Write the time as HH:MM on a 24-hour clock.',
      '7:3 unknown-account — did you mean `brand-photo`?',
      '10:17 invalid-rule — A span over midnight is written from the evening to the morning.',
      '11:16 unknown-account — did you mean `brand-photo`?',
      '12:18 invalid-duration — Write a number and a unit: d, h or m.',
      '13:3 rule-with-several-checks — Give each check a rule of its own, under its own name.',
      '14:3 rule-without-check — Add the check this rule makes, e.g. `quietHours: { from: "22:00", to: "07:00" }`.',
      '15:11 unknown-field — did you mean `quietHours`?',
      '16:26 invalid-date — Check the month and the day.',
      '16:38 invalid-date-range — Swap the two dates.',
      '16:76 invalid-date — Remove the time, or write `{ from: …, to: … }`.',
      '17:25 unknown-variable — did you mean `{platform}`?',
      '18:27 rule-when-not-allowed — Narrow a schedule rule with `accounts` or `platforms` instead.',
      '19:32 invalid-time — Write hours and minutes with a colon, in quotes.',
      '20:36 invalid-value — Correct the value.',
    ]);
    const text = problems.map(formatConfigDiagnostic).join('\n');
    expect(text).toContain('postsync.yaml:21:25: unknown placeholder `{platfrom}` in `utm.source` of rule `utm`');
    expect(text).toContain('postsync.yaml:17:3: rule `two` has 2 checks (`maxPerDay`, `maxPerWeek`)');
    expect(text).toContain('found `Mun 09:00`');
  });
});
