export { loadConfig, DEFAULT_CONTENT_DIR, DEFAULT_STATE_PATH, DEFAULT_TIMEZONE, type LoadConfigOptions } from './load-config.js';
export { InvalidConfigError, formatConfigDiagnostic } from './invalid-config-error.js';
export { CONFIG_FILE_NAMES } from './config-file.js';
export type { ApiConfig, Config, ConfigFlags } from './types.js';
export type { BlackoutPeriod, HouseRule, MaxPostsRule, MinGapRule, QuietHoursRule, RuleKind, RuleScope, ScheduleRule, UtmRule, WordsRule, ImageAltRule } from './house-rule-types.js';
export { RULE_KINDS, SCHEDULE_RULE_KINDS, UTM_SHORTHANDS } from './house-rule-types.js';
export { formatSlot, parseSlot, type SlotTable, type WeeklySlot } from './slots-section.js';
export { BUILT_IN_NAMES, templateNames, type TemplateVars } from './vars-section.js';
