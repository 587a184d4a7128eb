/**
 * The public market-data routes of the simulated exchange (the spec's "Market data and platform" table).
 * No authentication; bad input answers 400 `{ ok: false, error }` (the router adds `errorId`).
 */

import type { SimRequest, SimResponse } from '../../_types.ts';
import type { MarketSimulator } from '../../market/simulator.ts';
import {
  SIM_KLINE_INTERVALS,
  type SimKlineInterval,
  type SimLeaderboardPeriod,
  type SimLeaderboardType,
} from '../../market/types.ts';

/**
 * Service name reported by `GET /health`.
 *
 * @example
 * ```ts
 * // GET /health → { ok: true, service: SIM_SERVICE_NAME }
 * ```
 */
export const SIM_SERVICE_NAME = 'futures-sim';

const LEADERBOARD_TYPES: readonly SimLeaderboardType[] = ['volume', 'referrals', 'commission'];
const LEADERBOARD_PERIODS: readonly SimLeaderboardPeriod[] = ['7d', '30d', 'all'];

/** Largest `limit` served for depth and trades (the spec leaves it open; larger values are clamped). */
const DEPTH_TRADES_MAX = 1000;
/** Largest `limit` served for klines (larger values are clamped). */
const KLINES_MAX = 1500;

/** A 400 raised while reading the query; caught once in {@link handleMarketRoute}. */
class BadRequest extends Error {}

function ok(body: Record<string, unknown>, headers?: Record<string, string>): SimResponse {
  return headers ? { status: 200, body: { ok: true, ...body }, headers } : { status: 200, body: { ok: true, ...body } };
}

function requireSymbol(market: MarketSimulator, query: URLSearchParams): string {
  const symbol = query.get('symbol');
  if (symbol === null || symbol === '') throw new BadRequest('symbol is required');
  if (!market.has(symbol)) throw new BadRequest(`Invalid symbol: ${symbol}`);
  return symbol;
}

/** A positive integer query parameter; absent → `fallback`; above `max` → `max` (or 400 when `strictMax`). */
function readLimit(query: URLSearchParams, fallback: number, max: number, strictMax = false): number {
  const raw = query.get('limit');
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new BadRequest('limit must be a positive integer');
  const limit = Number(raw);
  if (limit > max) {
    if (strictMax) throw new BadRequest(`limit must be between 1 and ${max}`);
    return max;
  }
  return limit;
}

function readOptionalTime(query: URLSearchParams, name: string): void {
  const raw = query.get(name);
  if (raw !== null && raw !== '' && !/^\d+$/.test(raw)) throw new BadRequest(`${name} must be a ms epoch integer`);
}

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

function platformTokens(market: MarketSimulator, req: SimRequest): SimResponse {
  const { hash, tokens } = market.platformTokens();
  const etag = `"${hash}"`;
  const headers = { ETag: etag, 'Cache-Control': 'public, max-age=300' };
  const ifNoneMatch = req.headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    const candidates = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    // A 304 has no body: the router must send `null`, not JSON.
    if (candidates.includes(etag) || candidates.includes('*')) return { status: 304, body: undefined, headers };
  }
  return ok({ hash, tokens }, headers);
}

function route(market: MarketSimulator, req: SimRequest): SimResponse | undefined {
  const { query } = req;
  switch (req.path) {
    case '/health':
      return ok({ service: SIM_SERVICE_NAME });
    case '/v2/symbols':
      return ok({ symbols: [...market.symbols] });
    case '/v2/ticker/24hr': {
      const symbol = query.get('symbol');
      if (symbol === null) return ok({ tickers: market.symbols.map((s) => market.ticker(s)) });
      if (symbol === '' || !market.has(symbol)) throw new BadRequest(`Invalid symbol: ${symbol}`);
      return ok({ tickers: [market.ticker(symbol)] });
    }
    case '/v2/depth': {
      const symbol = requireSymbol(market, query);
      const { bids, asks } = market.depth(symbol, readLimit(query, 100, DEPTH_TRADES_MAX));
      return ok({ bids, asks });
    }
    case '/v2/trades': {
      const symbol = requireSymbol(market, query);
      return ok({ trades: market.trades(symbol, readLimit(query, 20, DEPTH_TRADES_MAX)) });
    }
    case '/v2/funding-rate': {
      const symbol = requireSymbol(market, query);
      return ok({ symbol, fundingRate: market.fundingRate(symbol) });
    }
    case '/v2/klines': {
      const symbol = requireSymbol(market, query);
      const interval = query.get('interval');
      if (interval === null || interval === '') throw new BadRequest('interval is required');
      if (!isOneOf<SimKlineInterval>(SIM_KLINE_INTERVALS, interval)) {
        throw new BadRequest(`Invalid interval: ${interval} (expected one of ${SIM_KLINE_INTERVALS.join(', ')})`);
      }
      // Accepted by validation and ignored, as the spec documents: the newest candles are always returned.
      readOptionalTime(query, 'startTime');
      readOptionalTime(query, 'endTime');
      return ok({ data: market.klines(symbol, interval, readLimit(query, 300, KLINES_MAX)) });
    }
    case '/v2/leaderboard': {
      const type = query.get('type');
      if (type === null || type === '') throw new BadRequest('type is required');
      if (!isOneOf(LEADERBOARD_TYPES, type)) throw new BadRequest('type must be one of volume, referrals, commission');
      const period = query.get('period') ?? 'all';
      if (!isOneOf(LEADERBOARD_PERIODS, period)) throw new BadRequest('period must be one of 7d, 30d, all');
      const limit = readLimit(query, 20, 100, true);
      return ok({ type, period, data: market.leaderboard(type, period, limit) });
    }
    case '/v2/platform/tokens':
      return platformTokens(market, req);
    case '/v2/platform/status':
      return ok({ features: market.platformStatus() });
    default:
      return undefined;
  }
}

/**
 * Serves one public market-data route, or returns `undefined` when `req` is not a `GET` of one (the router then
 * tries its other routes).
 */
export function handleMarketRoute(market: MarketSimulator, req: SimRequest): SimResponse | undefined {
  if (req.method !== 'GET') return undefined;
  try {
    return route(market, req);
  } catch (error) {
    if (error instanceof BadRequest) return { status: 400, body: { ok: false, error: error.message } };
    throw error;
  }
}
