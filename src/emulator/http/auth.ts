import { createHash, timingSafeEqual } from 'node:crypto';
import type { Permission } from '../../api/types.js';
import { ErrorCodes } from '../../api/error-codes.js';
import { ApiError } from '../protocol/envelope.js';
import type { Fixture } from '../fixture/fixture.js';

/** A key as the emulator keeps it: only the SHA-256 of the token, never the token itself. */
export interface ApiKey {
  readonly tokenHash: Buffer;
  readonly projectId: string;
  readonly permissions: readonly Permission[];
  readonly paused: boolean;
  readonly expiresAt: string | null;
}

/** Who is calling: the project the key belongs to and the key itself. */
export interface Caller {
  readonly projectId: string;
  readonly key: ApiKey;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

const unauthorized = (message: string, code: string = ErrorCodes.unauthorized): ApiError =>
  new ApiError(401, code, message, { 'WWW-Authenticate': 'Bearer' });

export class KeyRing {
  private readonly keys: ApiKey[];

  constructor(fixture: Fixture) {
    this.keys = fixture.projects.flatMap((project) =>
      project.keys.map((key) => ({
        tokenHash: sha256(key.token),
        projectId: project.id,
        permissions: [...key.permissions],
        paused: key.paused ?? false,
        expiresAt: key.expiresAt ? new Date(key.expiresAt).toISOString() : null,
      })),
    );
  }

  /**
   * Resolves `Authorization: Bearer <key>`. Every stored hash is compared, with no early exit, so
   * the time taken does not depend on which key (if any) matches.
   */
  authenticate(authorization: string | undefined, nowMs: number): Caller {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match?.[1]) throw unauthorized('missing bearer API key: send `Authorization: Bearer <API_KEY>`');
    const presented = sha256(match[1]);
    let found: ApiKey | undefined;
    for (const key of this.keys) {
      if (timingSafeEqual(presented, key.tokenHash) && !found) found = key;
    }
    if (!found) throw unauthorized('unknown API key');
    if (found.expiresAt !== null && Date.parse(found.expiresAt) <= nowMs) {
      throw unauthorized(`API key expired at ${found.expiresAt}`, ErrorCodes.apiKeyExpired);
    }
    if (found.paused) throw new ApiError(403, ErrorCodes.apiKeyPaused, 'API key is paused');
    return { projectId: found.projectId, key: found };
  }
}

export function hasPermission(caller: Caller, permission: Permission): boolean {
  return caller.key.permissions.includes(permission);
}

/** 403 naming the missing permission. */
export function requirePermission(caller: Caller, permission: Permission, why?: string): void {
  if (hasPermission(caller, permission)) return;
  const reason = why ? ` (${why})` : '';
  throw new ApiError(403, ErrorCodes.missingPermission, `this API key lacks the \`${permission}\` permission${reason}`);
}
