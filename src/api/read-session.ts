import { firstValue, requiredString } from './read-fields.js';
import type { Session } from './types.js';

/**
 * The spec names what GET /auth/session returns (the project, the key expiry, the effective
 * permissions) but not its field names, so each is looked for under the names a service may use,
 * ours first. Only the project id is needed (it names the state section); an expiry that is not
 * found reads as none (null), a permission list that is not found as empty.
 */
const PROJECT_ID = ['project.id', 'projectId', 'project_id', 'project.projectId', 'project'];
const EXPIRES_AT = ['key.expiresAt', 'expiresAt', 'keyExpiresAt', 'apiKey.expiresAt', 'key.expires_at', 'expires_at'];
const PERMISSIONS = ['permissions', 'scopes', 'effectivePermissions', 'key.permissions', 'apiKey.permissions', 'key.scopes'];

const ENDPOINT = 'GET /auth/session';

export function readSession(data: unknown): Session {
  const projectId = requiredString(ENDPOINT, data, PROJECT_ID);
  const expiresAt = firstValue(data, EXPIRES_AT);
  const permissions = firstValue(data, PERMISSIONS);
  return {
    project: { id: projectId },
    key: { expiresAt: typeof expiresAt === 'string' ? expiresAt : null },
    permissions: Array.isArray(permissions) ? (permissions.filter((item) => typeof item === 'string') as Session['permissions']) : [],
  };
}
