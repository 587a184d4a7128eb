/**
 * Every endpoint of the client, read from the SDK's own registry (src/endpoints/registry.ts), with one valid call
 * and the spec-shaped body a well-behaved server would answer it with. A new endpoint without a row here fails
 * `hostileEndpoints()` at once, so the hostile properties cannot silently skip it.
 */
import type { FuturesClient } from 'futures-sdk';
import { ENDPOINTS } from '../../src/endpoints/registry.ts';
import { order, specRoutes } from '../actions/_fixtures.ts';

export type Safety = 'idempotent' | 'at-most-once';

/** What the server knows of a request when it builds a valid answer. */
export interface ValidBodyInput {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON body ({} when none or unreadable). */
  json: Record<string, unknown>;
  /** For creates: the order id the server assigned to each clientOrderId (dedupe state). */
  orderIdFor(clientOrderId: string): { id: string; idempotent: boolean };
}

export interface HostileEndpoint {
  /** `resource.method`, as in the registry. */
  readonly name: string;
  readonly method: string;
  /** Spec path with `{id}`. */
  readonly path: string;
  readonly bucket: string;
  readonly safety: Safety;
  readonly signed: boolean;
  /** cancel / cancelAll / closePosition: the calls that must reach the server during a pause. */
  readonly killSwitch: boolean;
  /** Creates orders (dedupe by clientOrderId applies). */
  readonly creates: 'one' | 'batch' | undefined;
  /** Exactly one valid call of the endpoint. */
  call(client: FuturesClient, options?: { timeoutMs?: number }): Promise<unknown>;
  /** The body a healthy server answers with (2xx). */
  valid(input: ValidBodyInput): Record<string, unknown>;
}

type Row = Pick<HostileEndpoint, 'call'> & { valid?: HostileEndpoint['valid'] };

const SYMBOL = 'BTCUSDT';

const ROWS: Record<string, Row> = {
  'orders.create': {
    call: (c, o) =>
      c.orders.create({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60000' }, o),
    valid: ({ json, orderIdFor }) => {
      const clientOrderId = typeof json['clientOrderId'] === 'string' ? json['clientOrderId'] : 'missing';
      const { id, idempotent } = orderIdFor(clientOrderId);
      return idempotent
        ? { ok: true, order: order({ id, clientOrderId }), idempotent: true }
        : { ok: true, order: order({ id, clientOrderId }), venue: { orderId: 1 } };
    },
  },
  'orders.createBatch': {
    call: (c, o) =>
      c.orders.createBatch(
        [
          { symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity: '1' },
          { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '59000' },
        ],
        o,
      ),
    valid: ({ json, orderIdFor }) => {
      const items = Array.isArray(json['orders']) ? (json['orders'] as Array<Record<string, unknown>>) : [];
      return {
        ok: true,
        results: items.map((item, index) => {
          const coid = typeof item['clientOrderId'] === 'string' ? item['clientOrderId'] : `missing-${index}`;
          const { id, idempotent } = orderIdFor(coid);
          return {
            index,
            success: true,
            orderId: id,
            symbol: SYMBOL,
            status: 'NEW',
            ...(idempotent ? { idempotent } : {}),
          };
        }),
      };
    },
  },
  'orders.list': { call: (c, o) => c.orders.list({ symbol: SYMBOL, limit: 200 }, o) },
  'orders.get': { call: (c, o) => c.orders.get('ord-1', o) },
  'orders.cancel': { call: (c, o) => c.orders.cancel('ord-1', {}, o) },
  'orders.cancelAll': { call: (c, o) => c.orders.cancelAll({ symbol: SYMBOL }, o) },
  'orders.closePosition': { call: (c, o) => c.orders.closePosition({ positionId: 'pos-1' }, o) },
  'orders.openOrders': { call: (c, o) => c.orders.openOrders({ symbol: SYMBOL }, o) },
  'orders.myTrades': { call: (c, o) => c.orders.myTrades({ symbol: SYMBOL, fromId: 6 }, o) },
  'orders.positionHistory': { call: (c, o) => c.orders.positionHistory({ limit: 1000 }, o) },
  'futures.setLeverage': { call: (c, o) => c.futures.setLeverage({ symbol: SYMBOL, leverage: 10 }, o) },
  'futures.setMarginType': { call: (c, o) => c.futures.setMarginType({ symbol: SYMBOL, marginType: 'ISOLATED' }, o) },
  'futures.closeAndSwitchMargin': {
    call: (c, o) => c.futures.closeAndSwitchMargin({ symbol: SYMBOL, targetMarginType: 'ISOLATED' }, o),
  },
  'futures.setPositionMode': { call: (c, o) => c.futures.setPositionMode({ positionMode: 'HEDGE' }, o) },
  'account.balance': { call: (c, o) => c.account.balance({}, o) },
  'account.positions': { call: (c, o) => c.account.positions({ status: 'OPEN' }, o) },
  'account.exposure': { call: (c, o) => c.account.exposure(o) },
  'account.transfers': { call: (c, o) => c.account.transfers({ skip: 0, take: 100 }, o) },
  'account.activities': { call: (c, o) => c.account.activities({ skip: 0, take: 10 }, o) },
  'account.pnlHistory': { call: (c, o) => c.account.pnlHistory({ period: 'daily' }, o) },
  'account.spotBalances': { call: (c, o) => c.account.spotBalances('acc-1', o) },
  'market.symbols': { call: (c, o) => c.market.symbols(o) },
  'market.ticker24hr': { call: (c, o) => c.market.ticker24hr({ symbol: SYMBOL }, o) },
  'market.depth': { call: (c, o) => c.market.depth({ symbol: SYMBOL, limit: 5 }, o) },
  'market.trades': { call: (c, o) => c.market.trades({ symbol: SYMBOL }, o) },
  'market.fundingRate': { call: (c, o) => c.market.fundingRate({ symbol: SYMBOL }, o) },
  'market.klines': { call: (c, o) => c.market.klines({ symbol: SYMBOL, interval: '1m', limit: 3 }, o) },
  'market.leaderboard': { call: (c, o) => c.market.leaderboard({ type: 'volume', period: '7d', limit: 10 }, o) },
  'market.platformTokens': { call: (c, o) => c.market.platformTokens(o) },
  'market.platformStatus': { call: (c, o) => c.market.platformStatus(o) },
  'market.health': { call: (c, o) => c.market.health(o) },
};

/** The concrete path each call above sends (ids filled in). */
const concretePath = (template: string) =>
  template.replace('{id}', template.startsWith('/v2/accounts/') ? 'acc-1' : 'ord-1');

type Route = { body: unknown } | ((req: { query: URLSearchParams }) => { body: unknown });

function fixtureBody(method: string, template: string, query: URLSearchParams): Record<string, unknown> {
  const routes = specRoutes() as unknown as Record<string, Route>;
  const route = routes[`${method} ${concretePath(template)}`];
  if (route === undefined) throw new Error(`no fixture for ${method} ${template}`);
  const { body } = typeof route === 'function' ? route({ query }) : route;
  return body as Record<string, unknown>;
}

const KILL_SWITCH = new Set(['orders.cancel', 'orders.cancelAll', 'orders.closePosition']);

let cached: HostileEndpoint[] | undefined;

/** Every endpoint of the registry, with its call and valid answer. Throws if a registry entry has no row. */
export function hostileEndpoints(): HostileEndpoint[] {
  if (cached) return cached;
  cached = ENDPOINTS.map((def) => {
    const row = ROWS[def.name];
    if (!row) throw new Error(`test/hostile/endpoints.ts has no row for ${def.name}: add one`);
    return {
      name: def.name,
      method: def.method,
      path: def.path,
      bucket: def.bucket,
      safety: def.safety,
      signed: def.auth === 'signed',
      killSwitch: KILL_SWITCH.has(def.name),
      creates: def.name === 'orders.create' ? 'one' : def.name === 'orders.createBatch' ? 'batch' : undefined,
      call: row.call,
      valid: row.valid ?? ((input) => fixtureBody(def.method, def.path, input.query)),
    } satisfies HostileEndpoint;
  });
  const extra = Object.keys(ROWS).filter((name) => !ENDPOINTS.some((e) => e.name === name));
  if (extra.length > 0) throw new Error(`rows for endpoints the registry does not have: ${extra.join(', ')}`);
  return cached;
}

export function endpointByName(name: string): HostileEndpoint {
  const found = hostileEndpoints().find((e) => e.name === name);
  if (!found) throw new Error(`no endpoint ${name}`);
  return found;
}

/** The endpoint a request is for, by method and path template (`{id}` = one segment). */
export function endpointFor(method: string, path: string): HostileEndpoint | undefined {
  return hostileEndpoints().find((e) => {
    if (e.method !== method) return false;
    const pattern = new RegExp(`^${e.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace('{id}', '[^/]+')}$`);
    return pattern.test(path);
  });
}
