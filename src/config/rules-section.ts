import { closestMatch } from '../text/did-you-mean.js';
import { parseClock, parseDuration, parseWallMoment, wallMinutes } from '../zoned-time/index.js';
import { RULE_KINDS, SCHEDULE_RULE_KINDS, UTM_PARAMETERS, UTM_SHORTHANDS, type BlackoutPeriod, type HouseRule, type RuleCommon, type RuleKind, type RuleScope } from './house-rule-types.js';
import { accountAt, isRecord, reportAt, stringsOf, type SectionContext } from './section-context.js';

/**
 * `rules:` of postsync.yaml → house rules, in file order. Each entry holds exactly one check
 * (RULE_KINDS) and optionally `severity`, `accounts`, `platforms` and (text and media rules)
 * `when`. A rule with a problem is reported and left out; the others are kept.
 */
export function readRulesSection(raw: unknown, context: SectionContext & { templateNames: readonly string[] }): HouseRule[] {
  if (!isRecord(raw)) return [];
  const rules: HouseRule[] = [];
  for (const [name, entry] of Object.entries(raw)) {
    if (!isRecord(entry)) continue;
    const rule = readRule(name, entry, context);
    if (rule !== undefined) rules.push(rule);
  }
  return rules;
}

function readRule(name: string, entry: Record<string, unknown>, context: SectionContext & { templateNames: readonly string[] }): HouseRule | undefined {
  const kinds = RULE_KINDS.filter((kind) => entry[kind] !== undefined);
  // A misspelt check (`quietHour`) is already reported by the schema, with its did-you-mean.
  if (kinds.length === 0 && Object.keys(entry).some((key) => !RULE_FIELDS.has(key))) return undefined;
  if (kinds.length !== 1) {
    reportAt(context, ['rules', name], {
      code: kinds.length === 0 ? 'rule-without-check' : 'rule-with-several-checks',
      atKey: true,
      message: kinds.length === 0 ? `rule \`${name}\` has no check` : `rule \`${name}\` has ${kinds.length} checks (${kinds.map((k) => `\`${k}\``).join(', ')})`,
      expected: `exactly one of ${RULE_KINDS.map((k) => `\`${k}\``).join(', ')}`,
      hint: kinds.length === 0 ? 'Add the check this rule makes, e.g. `quietHours: { from: "22:00", to: "07:00" }`.' : 'Give each check a rule of its own, under its own name.',
    });
    return undefined;
  }
  const kind = kinds[0]!;
  const at = (...path: (string | number)[]) => ['rules', name, ...path];
  const errors = context.diagnostics.length;
  const scope = readScope(entry, kind, at, context);
  const common: RuleCommon = { name, severity: entry.severity === 'warning' ? 'warning' : 'error', scope };
  const rule = readCheck(kind, entry[kind], common, at, context);
  return context.diagnostics.length === errors ? rule : undefined;
}

const RULE_FIELDS: ReadonlySet<string> = new Set([...RULE_KINDS, 'severity', 'accounts', 'platforms', 'when']);

type At = (...path: (string | number)[]) => (string | number)[];

function readScope(entry: Record<string, unknown>, kind: RuleKind, at: At, context: SectionContext): RuleScope {
  const accounts = entry.accounts === undefined ? null : stringsOf(entry.accounts).flatMap(({ text, index }) => accountAt(context, index < 0 ? at('accounts') : at('accounts', index), text) ?? []);
  const platforms = entry.platforms === undefined ? null : stringsOf(entry.platforms).map(({ text }) => text);
  let when: RuleScope['when'] = null;
  if (isRecord(entry.when)) {
    if (SCHEDULE_RULE_KINDS.has(kind)) {
      reportAt(context, at('when'), { code: 'rule-when-not-allowed', atKey: true, message: `\`when\` does not apply to a \`${kind}\` rule`, expected: '`when` only on `bannedWords`, `requiredWords`, `imageAlt` and `utm` rules', hint: 'Narrow a schedule rule with `accounts` or `platforms` instead.' });
    }
    when = Object.fromEntries(Object.entries(entry.when).filter((pair): pair is [string, string | number | boolean] => ['string', 'number', 'boolean'].includes(typeof pair[1])));
  }
  return { accounts, platforms, when };
}

function readCheck(kind: RuleKind, value: unknown, common: RuleCommon, at: At, context: SectionContext & { templateNames: readonly string[] }): HouseRule | undefined {
  switch (kind) {
    case 'quietHours': {
      if (!isRecord(value)) return undefined;
      const from = clockAt(value.from, at(kind, 'from'), context);
      const to = clockAt(value.to, at(kind, 'to'), context);
      if (from === undefined || to === undefined) return undefined;
      if (from === to) reportAt(context, at(kind), { code: 'invalid-rule', message: `quiet hours of rule \`${common.name}\` start and end at the same time`, expected: 'two different times, e.g. `from: "22:00"` and `to: "07:00"`', hint: 'A span over midnight is written from the evening to the morning.' });
      return { ...common, kind, from, to };
    }
    case 'minGap': {
      if (typeof value !== 'string') return undefined;
      const minutes = parseDuration(value);
      if (minutes === undefined) reportAt(context, at(kind), { code: 'invalid-duration', message: `\`rules.${common.name}.minGap\` is not a duration`, expected: 'a duration such as `2h`, `90m`, `1h30m` or `1 day`', found: `\`${value}\``, hint: 'Write a number and a unit: d, h or m.' });
      return minutes === undefined ? undefined : { ...common, kind, minutes };
    }
    case 'maxPerDay':
    case 'maxPerWeek':
      return Number.isInteger(value) && (value as number) >= 1 ? { ...common, kind, limit: value as number } : undefined;
    case 'blackout': {
      const periods = (Array.isArray(value) ? value : [value]).map((entry, index) => blackoutPeriod(entry, Array.isArray(value) ? at(kind, index) : at(kind), context));
      return periods.every((period) => period !== undefined) ? { ...common, kind, periods: periods as BlackoutPeriod[] } : undefined;
    }
    case 'bannedWords':
    case 'requiredWords': {
      const words = [...new Set(stringsOf(value).map(({ text }) => text.trim()).filter(Boolean))];
      return words.length > 0 ? { ...common, kind, words } : undefined;
    }
    case 'imageAlt':
      return value === true ? { ...common, kind } : undefined;
    case 'utm':
      return isRecord(value) ? utmRule(value, common, at, context) : undefined;
  }
}

function clockAt(value: unknown, path: (string | number)[], context: SectionContext): number | undefined {
  if (typeof value !== 'string') return undefined;
  const minute = parseClock(value);
  if (minute === undefined) reportAt(context, path, { code: 'invalid-time', message: `\`${path.join('.')}\` is not a time of day`, expected: 'a time such as `07:00` or `22:30` (24-hour clock)', found: `\`${value}\``, hint: 'Write hours and minutes with a colon, in quotes.' });
  return minute;
}

function blackoutPeriod(entry: unknown, path: (string | number)[], context: SectionContext): BlackoutPeriod | undefined {
  const ends = typeof entry === 'string' ? { from: entry, to: entry } : isRecord(entry) ? entry : undefined;
  if (ends === undefined || typeof ends.from !== 'string' || typeof ends.to !== 'string') return undefined;
  const single = typeof entry === 'string';
  const read = (text: string, end: 'from' | 'to') => {
    const parsed = parseWallMoment(text);
    if (parsed === undefined || (single && parsed.hasTime)) {
      reportAt(context, single ? path : [...path, end], {
        code: 'invalid-date',
        message: `\`${text}\` is not a date`,
        expected: single ? 'a date such as `2026-12-25` (a span with times is written `{ from, to }`)' : 'a date such as `2026-12-25`, or a date and time such as `2027-01-10 12:00`',
        found: `\`${text}\``,
        hint: parsed !== undefined ? 'Remove the time, or write `{ from: …, to: … }`.' : /^\d{4}-\d{2}-\d{2}\b/.test(text.trim()) ? 'Check the month and the day.' : 'Write the date as YYYY-MM-DD.',
      });
      return undefined;
    }
    // A date alone as the end means "through that day" (a single date is the whole day).
    return wallMinutes(parsed.moment) + (end === 'to' && !parsed.hasTime ? 1440 : 0);
  };
  const from = read(ends.from, 'from');
  const to = single ? (from === undefined ? undefined : from + 1440) : read(ends.to, 'to');
  if (from === undefined || to === undefined) return undefined;
  if (from >= to) {
    reportAt(context, path, { code: 'invalid-date-range', message: `blackout period \`${ends.from}\` – \`${ends.to}\` ends before it starts`, expected: '`from` before `to`', hint: 'Swap the two dates.' });
    return undefined;
  }
  const reason = isRecord(entry) && typeof entry.reason === 'string' ? entry.reason : undefined;
  return { from, to, label: single ? ends.from.trim() : `${ends.from.trim()} – ${ends.to.trim()}`, ...(reason === undefined ? {} : { reason }) };
}

function utmRule(value: Record<string, unknown>, common: RuleCommon, at: At, context: SectionContext & { templateNames: readonly string[] }): HouseRule | undefined {
  const params: Record<string, string> = {};
  const known = [...Object.keys(UTM_SHORTHANDS), ...context.templateNames];
  for (const parameter of UTM_PARAMETERS) {
    const template = value[parameter];
    if (typeof template !== 'string') continue;
    params[`utm_${parameter}`] = template;
    for (const [, name] of template.matchAll(/\{\s*([^{}]*?)\s*\}/g)) {
      if (known.includes(name!)) continue;
      reportAt(context, at('utm', parameter), { code: 'unknown-variable', message: `unknown placeholder \`{${name}}\` in \`utm.${parameter}\` of rule \`${common.name}\``, expected: `one of ${known.map((k) => `\`{${k}}\``).join(', ')}`, found: `\`{${name}}\``, hint: suggestion(name!, known) });
    }
  }
  if (Object.keys(params).length === 0) {
    reportAt(context, at('utm'), { code: 'invalid-rule', message: `rule \`${common.name}\` names no UTM parameter`, expected: `at least one of ${UTM_PARAMETERS.map((p) => `\`${p}\``).join(', ')}`, hint: 'For example `utm: { source: "{platform}", campaign: "{file.dir}" }`.' });
    return undefined;
  }
  const domains = value.domains === undefined ? null : stringsOf(value.domains).map(({ text }) => text.trim().toLowerCase().replace(/^\*?\./, ''));
  return { ...common, kind: 'utm', params, append: value.append === true, domains };
}

function suggestion(name: string, known: readonly string[]): string {
  const match = closestMatch(name, known);
  return match === undefined ? 'Use one of the names listed, or a var from `vars:`.' : `did you mean \`{${match}}\`?`;
}
