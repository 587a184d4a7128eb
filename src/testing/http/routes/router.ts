import type { SimRequest, SimResponse } from '../../_types.ts';
import type { Engine } from '../../engine/engine.ts';
import { SimHttpError } from '../../engine/errors.ts';
import type { MarketSimulator } from '../../market/simulator.ts';
import type { ApiKeys } from '../auth.ts';
import type { RateLimits } from '../rate-limits.ts';
import { accountRoutes } from './account.ts';
import { futuresRoutes } from './futures.ts';
import { handleMarketRoute } from './market.ts';
import { tradingRoutes } from './trading.ts';
import type { RouteDef } from './types.ts';

const ROUTES: readonly RouteDef[] = [...tradingRoutes, ...futuresRoutes, ...accountRoutes];

/** Paths that API keys may never call (the spec's "Restricted endpoints" table), whatever the method. */
const RESTRICTED: readonly RegExp[] = [
  /^\/v2\/withdraw\/?$/,
  /^\/v2\/transfers\/internal\/?$/,
  /^\/v2\/deposit\/(signature|confirm)\/?$/,
  /^\/v2\/auth\/logout\/?$/,
  /^\/v2\/api-keys(\/.*)?$/,
  /^\/v2\/admin(\/.*)?$/,
  /^\/api\/v2\/bd(\/.*)?$/,
  /^\/api\/v2\/manage(\/.*)?$/,
];

export interface RouterEnv {
  engine: Engine;
  keys: ApiKeys;
  limits: RateLimits;
  market: MarketSimulator;
  now(): number;
}

/**
 * Routes one request. Order: public market routes; restricted paths (403 for everyone, as no API key may call
 * them); unknown route (404, before auth: the route table is public in the spec); authentication (see
 * `ApiKeys`); rate limit per accountId (429 + Retry-After); a foreign `subAccountId` in query or body (403);
 * then the handler.
 */
export function route(env: RouterEnv, req: SimRequest): SimResponse {
  try {
    const market = handleMarketRoute(env.market, req);
    if (market) return market;
    if (RESTRICTED.some((pattern) => pattern.test(req.path))) {
      throw new SimHttpError(403, 'This endpoint is not available with API key authentication');
    }
    let matched: { route: RouteDef; params: string[] } | undefined;
    for (const candidate of ROUTES) {
      if (candidate.method !== req.method) continue;
      const match = candidate.pattern.exec(req.rawPath);
      if (!match) continue;
      matched = { route: candidate, params: match.slice(1).map(decodeSegment) };
      break;
    }
    if (!matched) throw new SimHttpError(404, `Cannot ${req.method} ${req.path}`);
    const now = env.now();
    const key = env.keys.authenticate(req, now, matched.route.permission);
    const account = env.engine.account(key.accountId);
    const retryAfter = env.limits.hit(account.id, matched.route.bucket, now);
    if (retryAfter !== undefined) {
      throw new SimHttpError(
        429,
        `Rate limit exceeded for the ${matched.route.bucket} bucket; retry after ${retryAfter} s`,
        { retryAfter },
        { 'Retry-After': String(retryAfter) },
      );
    }
    const querySub = req.query.get('subAccountId');
    if (querySub) env.engine.resolveSub(account, querySub);
    const body = req.body;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const bodySub = (body as Record<string, unknown>)['subAccountId'];
      if (bodySub !== undefined && bodySub !== null) env.engine.resolveSub(account, bodySub);
    }
    const result = matched.route.handle({
      req,
      account,
      engine: env.engine,
      market: env.market,
      params: matched.params,
      now,
    });
    return { status: 200, body: result };
  } catch (error) {
    if (error instanceof SimHttpError) {
      return { status: error.status, body: { ok: false, error: error.error, ...error.extras }, headers: error.headers };
    }
    throw error;
  }
}

function decodeSegment(segment: string | undefined): string {
  if (segment === undefined) return '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
