export { loadConfig, DEFAULT_CONTENT_DIR, DEFAULT_STATE_PATH, DEFAULT_TIMEZONE, type LoadConfigOptions } from './load-config.js';
export { InvalidConfigError, formatConfigDiagnostic } from './invalid-config-error.js';
export { CONFIG_FILE_NAMES } from './config-file.js';
export type { ApiConfig, Config, ConfigFlags } from './types.js';
