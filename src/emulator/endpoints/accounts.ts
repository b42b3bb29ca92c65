import type { Capabilities, Session } from '../../api/types.js';
import { ErrorCodes } from '../../api/error-codes.js';
import { requirePermission } from '../http/auth.js';
import type { ApiCall, Route } from '../http/context.js';
import { ApiError, notFound, ok, type Reply } from '../protocol/envelope.js';
import { isSupportedPlatform, rulesFor } from '../rules/platform-rules.js';
import { unavailableReason } from '../rules/schedule-rules.js';
import { Violations, checkQueryNames, integerParam, isUuid } from '../protocol/validate.js';
import { accountView } from './views.js';

/** GET /auth/session: any valid key may ask who it is. Never returns the key. */
function session(call: ApiCall): Reply {
  const data: Session = {
    project: { id: call.project.id },
    key: { expiresAt: call.caller.key.expiresAt },
    permissions: [...call.caller.key.permissions],
  };
  return ok(data);
}

/** GET /accounts: a Page in fixture order, `limit` 1..100 (default 50) and `after` (an account id). */
function listAccounts(call: ApiCall): Reply {
  requirePermission(call.caller, 'accounts-read');
  const violations = new Violations();
  checkQueryNames(call.query, ['limit', 'after'], violations);
  const limit = integerParam(call.query.get('limit'), 'limit', { min: 1, max: 100, fallback: 50 }, violations);
  const after = call.query.get('after');
  const accounts = call.project.accountList;
  let start = 0;
  if (after !== null) {
    const index = accounts.findIndex((account) => account.id === after.toLowerCase());
    if (index < 0) violations.add(`after ${after} is not an account of this project`);
    start = index + 1;
  }
  violations.throwIfAny();
  const items = accounts.slice(start, start + limit).map(accountView);
  const nextCursor = items.length === limit && start + limit < accounts.length ? (items[items.length - 1]?.id ?? null) : null;
  return ok({ items, nextCursor });
}

/** GET /accounts/{accountId}/capabilities: the account, availability and the platform's rules. */
function capabilities(call: ApiCall): Reply {
  requirePermission(call.caller, 'accounts-read');
  const id = call.params.accountId ?? '';
  if (!isUuid(id)) throw new ApiError(400, ErrorCodes.validationFailed, ['accountId must be a uuid']);
  const account = call.project.account(id);
  if (!account) throw notFound(`account ${id}`);
  const supported = isSupportedPlatform(account.platform);
  const reason = supported ? unavailableReason(account) : `platform ${account.platform} is not supported`;
  const data: Capabilities = {
    account: { id: account.id, platform: account.platform, status: account.status },
    supported,
    available: reason === undefined,
    requiredPermissions: {
      discover: ['accounts-read'],
      draft: ['posts-write'],
      schedule: ['posts-write', 'posts-publish'],
      publish: ['posts-write', 'posts-publish'],
      upload: ['media-write'],
    },
    rules: rulesFor(account.platform),
  };
  if (reason !== undefined) data.reason = reason;
  return ok(data);
}

export const accountRoutes: Route[] = [
  { method: 'GET', path: '/auth/session', handler: session },
  { method: 'GET', path: '/accounts', handler: listAccounts },
  { method: 'GET', path: '/accounts/:accountId/capabilities', handler: capabilities },
];
