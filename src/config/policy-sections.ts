import type { HouseRule } from './house-rule-types.js';
import { readRulesSection } from './rules-section.js';
import { deepFreeze, type SectionContext } from './section-context.js';
import { readSlotsSection, type SlotTable } from './slots-section.js';
import { readHashtagsSection, readVarsSection, templateNames, type TemplateVars } from './vars-section.js';
import type { RawConfig } from './config-file.js';

/** The calendar policies of postsync.yaml, frozen: `rules:`, `slots:`, `vars:` and `hashtags:`. */
export interface PolicySections {
  rules: readonly HouseRule[];
  slots: SlotTable;
  vars: TemplateVars;
  hashtags: Readonly<Record<string, string>>;
}

/** Reads the four sections; problems go to `context.diagnostics`, with their positions. */
export function readPolicySections(data: RawConfig, context: SectionContext): PolicySections {
  const vars = readVarsSection(data.vars, context);
  const hashtags = readHashtagsSection(data.hashtags, context);
  const rules = readRulesSection(data.rules, { ...context, templateNames: templateNames(vars, hashtags) });
  const slots = readSlotsSection(data.slots, context);
  return deepFreeze({ rules, slots, vars, hashtags });
}
