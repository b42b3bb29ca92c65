import { accountRoutes } from './accounts.js';
import { analyticsRoutes } from './analytics.js';
import type { Route } from '../http/context.js';
import { mediaRoutes } from './media.js';
import { multipartRoute } from './multipart.js';
import { postRoutes } from './posts.js';

/** Every endpoint under /public/v1. */
export const apiRoutes: Route[] = [...accountRoutes, ...postRoutes, ...mediaRoutes, multipartRoute, ...analyticsRoutes];
