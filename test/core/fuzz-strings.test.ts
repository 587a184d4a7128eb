/**
 * Fuzz (contract v0.3, "Truthful classes"): random Unicode in every string parameter of every endpoint method,
 * in the per-call options bag and in the client's string options. Invariant: every call either resolves or
 * rejects with an error for which `isFuturesError` is true (no URIError, TypeError or RangeError escapes, nothing
 * is thrown synchronously), and no call hangs. The client talks to the simulator (`ex.fetch`), so values that
 * pass validation really travel: query strings, JSON bodies, signatures, the simulator's parsing.
 */
import fc from 'fast-check';
import { ConfigurationError, FuturesClient, type FuturesClientOptions, isFuturesError } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/endpoints/registry.ts';

const ex = createExchange({ seed: 11, volatility: 0 });
ex.setMarkPrice('BTCUSDT', '60000');
const { accountId } = ex.createAccount({ balances: { USDT: '100000' }, spotBalances: { USDT: '50' } });
const credentials = ex.createApiKey(accountId, { permissions: ['TRADE'] });

function client(overrides: Partial<FuturesClientOptions> = {}): FuturesClient {
  return new FuturesClient({
    baseUrl: ex.baseUrl,
    ...credentials,
    fetch: ex.fetch,
    retry: false,
    rateLimit: false,
    timeoutMs: 2_000,
    ...overrides,
  });
}

// ── Strings ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Characters that break things somewhere: lone surrogates, controls, URL and form delimiters, wide letters. */
const NASTY_UNITS = [
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u0000',
  '\t',
  '\n',
  '\r',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u202e',
  '\ufeff',
  '\uffff',
  '%',
  '%2e',
  '%E0%A4%A',
  '/',
  '\\',
  '?',
  '#',
  '&',
  '=',
  '+',
  ' ',
  '.',
  '"',
  "'",
  '<',
  '{',
  'é',
  'ß',
  'İ',
  '😀',
  '👩‍👩‍👧',
  'a',
  '0',
] as const;

const LONG = [
  'x'.repeat(100_000),
  '😀'.repeat(30_000),
  '\ud800'.repeat(10_000),
  '%'.repeat(20_000),
  `BTCUSDT${'0'.repeat(50_000)}`,
];

/** Random Unicode: graphemes, any code point, nasty units, edge constants and very long strings. */
const nasty: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: fc.constantFrom(...NASTY_UNITS), maxLength: 16 }),
  fc.constantFrom('', '.', '..', ' ', 'null', 'undefined', '__proto__', 'constructor', '0', '-1', '1e309', 'NaN'),
  fc.constantFrom(...LONG),
);

/** The valid value, or random Unicode (two times in three). */
const str = (valid: string) => fc.oneof({ weight: 1, arbitrary: fc.constant(valid) }, { weight: 2, arbitrary: nasty });
/** Absent, or random Unicode. */
const optStr = fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: nasty });

/** A params object from per-key arbitraries, without the keys that came out `undefined`. */
function params(shape: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record(shape)
    .map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)));
}

const orderParams = params({
  symbol: str('BTCUSDT'),
  side: str('BUY'),
  type: str('LIMIT'),
  quantity: str('0.01'),
  price: str('50000'),
  stopPrice: optStr,
  positionSide: optStr,
  clientOrderId: optStr,
  subAccountId: optStr,
});

// ── Every method, every string parameter ─────────────────────────────────────────────────────────────────────

interface Row {
  /** The parameters this row fills with random strings (checked against the endpoint's schema below). */
  strings: string[];
  /** Parameters that are not strings (left valid, so that the strings get past validation). */
  others?: string[];
  args: fc.Arbitrary<unknown[]>;
}

const tuple = (...items: Array<fc.Arbitrary<unknown>>) => fc.tuple(...items) as fc.Arbitrary<unknown[]>;
const none = fc.constant([] as unknown[]);
const ORDER_STRINGS = ['symbol', 'side', 'type', 'quantity', 'price', 'stopPrice', 'positionSide', 'clientOrderId'];

/** `resource.method` → its random arguments (the trailing options bag is added by the test). */
const TABLE: Record<string, Row> = {
  'orders.create': { strings: [...ORDER_STRINGS, 'subAccountId'], args: tuple(orderParams) },
  'orders.createBatch': {
    strings: ['orders', ...ORDER_STRINGS, 'subAccountId'],
    args: tuple(fc.array(orderParams, { minLength: 1, maxLength: 3 })),
  },
  'orders.list': {
    strings: ['symbol', 'status'],
    others: ['limit', 'offset'],
    args: tuple(params({ symbol: optStr, status: optStr })),
  },
  'orders.listAll': { strings: ['symbol', 'status'], args: tuple(params({ symbol: optStr, status: optStr })) },
  'orders.get': { strings: ['id'], args: tuple(str('ord-1')) },
  'orders.cancel': { strings: ['id', 'subAccountId'], args: tuple(str('ord-1'), params({ subAccountId: optStr })) },
  'orders.cancelAll': {
    strings: ['symbol', 'subAccountId'],
    others: ['includeConditional'],
    args: tuple(params({ symbol: optStr, subAccountId: optStr })),
  },
  'orders.replace': { strings: ['id', ...ORDER_STRINGS, 'subAccountId'], args: tuple(str('ord-1'), orderParams) },
  'orders.closePosition': {
    strings: ['positionId', 'quantity'],
    args: tuple(params({ positionId: str('pos-1'), quantity: optStr })),
  },
  'orders.openOrders': {
    strings: ['symbol', 'subAccountId'],
    args: tuple(params({ symbol: optStr, subAccountId: optStr })),
  },
  'orders.myTrades': {
    strings: ['symbol', 'subAccountId'],
    others: ['fromId'],
    args: tuple(params({ symbol: str('BTCUSDT'), subAccountId: optStr })),
  },
  'orders.positionHistory': {
    strings: ['symbol', 'subAccountId'],
    others: ['page', 'limit', 'startTime', 'endTime'],
    args: tuple(params({ symbol: optStr, subAccountId: optStr })),
  },
  'futures.setLeverage': {
    strings: ['symbol'],
    others: ['leverage', 'forceWithOpenPosition'],
    args: tuple(params({ symbol: str('BTCUSDT'), leverage: fc.constant(5) })),
  },
  'futures.setMarginType': {
    strings: ['symbol', 'marginType'],
    others: ['forceWithOpenPosition'],
    args: tuple(params({ symbol: str('BTCUSDT'), marginType: str('ISOLATED') })),
  },
  'futures.closeAndSwitchMargin': {
    strings: ['symbol', 'targetMarginType'],
    args: tuple(params({ symbol: str('BTCUSDT'), targetMarginType: str('ISOLATED') })),
  },
  'futures.setPositionMode': { strings: ['positionMode'], args: tuple(params({ positionMode: str('HEDGE') })) },
  'account.balance': { strings: ['subAccountId'], args: tuple(params({ subAccountId: optStr })) },
  'account.positions': { strings: ['status'], args: tuple(params({ status: optStr })) },
  'account.exposure': { strings: [], args: none },
  'account.transfers': { strings: ['type'], others: ['skip', 'take'], args: tuple(params({ type: optStr })) },
  'account.transfersAll': { strings: ['type'], args: tuple(params({ type: optStr })) },
  'account.activities': { strings: [], others: ['skip', 'take'], args: tuple(params({ junk: optStr })) },
  'account.activitiesAll': { strings: [], args: tuple(params({ junk: optStr })) },
  'account.pnlHistory': { strings: ['period'], others: ['limit'], args: tuple(params({ period: optStr })) },
  'account.spotBalances': { strings: ['id'], args: tuple(str('acc-1')) },
  'market.health': { strings: [], args: none },
  'market.symbols': { strings: [], args: none },
  'market.ticker24hr': { strings: ['symbol'], args: tuple(params({ symbol: optStr })) },
  'market.depth': { strings: ['symbol'], others: ['limit'], args: tuple(params({ symbol: str('BTCUSDT') })) },
  'market.trades': { strings: ['symbol'], others: ['limit'], args: tuple(params({ symbol: str('BTCUSDT') })) },
  'market.fundingRate': { strings: ['symbol'], args: tuple(params({ symbol: str('BTCUSDT') })) },
  'market.klines': {
    strings: ['symbol', 'interval'],
    others: ['limit', 'startTime', 'endTime'],
    args: tuple(params({ symbol: str('BTCUSDT'), interval: str('1h') })),
  },
  'market.leaderboard': {
    strings: ['type', 'period'],
    others: ['limit'],
    args: tuple(params({ type: str('volume'), period: optStr })),
  },
  'market.platformTokens': { strings: [], args: none },
  'market.platformStatus': { strings: [], args: none },
};

/** The parameter names a zod (mini) params schema declares: object keys, through unions, pipes and arrays. */
function schemaKeys(schema: unknown, depth = 0): string[] {
  const def = (schema as { def?: Record<string, unknown> } | undefined)?.def;
  if (!def || depth > 8) return [];
  if (def['type'] === 'object') return Object.keys(def['shape'] as object);
  if (def['type'] === 'union') return (def['options'] as unknown[]).flatMap((o) => schemaKeys(o, depth + 1));
  if (def['type'] === 'pipe') return schemaKeys(def['in'], depth + 1);
  if (def['type'] === 'array') return schemaKeys(def['element'], depth + 1);
  return def['innerType'] ? schemaKeys(def['innerType'], depth + 1) : [];
}

// ── Settling a call ──────────────────────────────────────────────────────────────────────────────────────────

const HANG_MS = 5_000;
type Outcome = { ok: true } | { ok: false; what: string };

const describeThrown = (error: unknown): string =>
  error instanceof Error
    ? `${error.name}: ${error.message.slice(0, 200)}\n${(error.stack ?? '').split('\n').slice(1, 6).join('\n')}`
    : `non-Error ${typeof error}: ${String(error).slice(0, 100)}`;

/** Calls `run` and settles what it returns (a promise, or an async generator pulled twice), bounded in time. */
async function settle(run: () => unknown): Promise<Outcome> {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    return { ok: false, what: `threw synchronously: ${describeThrown(error)}` };
  }
  const consume = async () => {
    const generator = result as AsyncGenerator;
    if (typeof generator?.next === 'function' && typeof generator.return === 'function') {
      await generator.next();
      await generator.next();
      await generator.return(undefined);
      return;
    }
    await result;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, what: `hung for ${HANG_MS} ms` }), HANG_MS);
  });
  const settled = consume().then(
    (): Outcome => ({ ok: true }),
    (error: unknown): Outcome =>
      isFuturesError(error) ? { ok: true } : { ok: false, what: `rejected with ${describeThrown(error)}` },
  );
  try {
    return await Promise.race([settled, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Shortens a counterexample for the report: long strings become their head, length and code units. */
function show(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    typeof v === 'string' && v.length > 40 ? `${v.slice(0, 20)}…(${v.length} units)` : v,
  );
}

const callOf = (c: FuturesClient, name: string) => {
  const [resource = '', method = ''] = name.split('.');
  const target = (c as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[resource]!;
  return (args: unknown[]) => () => target[method]!.apply(target, args);
};

/** The per-call options bag: valid, absent, random strings and values, hostile shapes. */
const optionsBag: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.record(
    {
      timeoutMs: fc.oneof(
        fc.integer({ min: -5, max: 3_000 }),
        fc.double(),
        nasty,
        fc.constantFrom(2 ** 31, Number.MAX_VALUE, -0),
      ),
      signal: fc.constantFrom(undefined, null, 'signal', {}, AbortSignal.abort(), new AbortController().signal),
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(nasty, fc.oneof(nasty, fc.anything({ maxDepth: 1 })), { maxKeys: 3 }),
  nasty,
  fc.anything({ maxDepth: 2 }),
);

// ── The properties ───────────────────────────────────────────────────────────────────────────────────────────

const NUM_RUNS = 50;
const methods = Object.keys(TABLE);

describe('the fuzz table', () => {
  it('has a row for every endpoint, and names every parameter of its schema', () => {
    const c = client();
    for (const endpoint of ENDPOINTS) {
      const row = TABLE[endpoint.name];
      expect(row, endpoint.name).toBeDefined();
      const declared = new Set([...(row?.strings ?? []), ...(row?.others ?? [])]);
      for (const key of schemaKeys(endpoint.params)) expect(declared.has(key), `${endpoint.name}: ${key}`).toBe(true);
    }
    // …and every row is a method of the client (the paginating helpers too).
    for (const name of methods) expect(typeof callOf(c, name)([]), name).toBe('function');
  });
});

describe('random Unicode in every string parameter: every call resolves or rejects with a FuturesError', () => {
  it.each(methods)('%s', async (name) => {
    const c = client();
    const call = callOf(c, name);
    const result = await fc.check(
      fc.asyncProperty(TABLE[name]!.args, optionsBag, async (args, options) => {
        const outcome = await settle(call(options === undefined ? args : [...args, options]));
        if (!outcome.ok) throw new Error(outcome.what);
      }),
      { numRuns: NUM_RUNS, seed: 20261126 },
    );
    const report = result.failed
      ? `${name}(${show(result.counterexample?.[0])}, ${show(result.counterexample?.[1])}): ${String(result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance)}`
      : undefined;
    expect(report).toBeUndefined();
  });
});

describe('random client options: a ConfigurationError at construction, or a client whose calls settle typed', () => {
  const url = fc.oneof(
    nasty,
    nasty.map((host) => `https://${host}`),
    nasty.map((path) => `${ex.baseUrl}/${path}`),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.constantFrom(
      ex.baseUrl,
      `${ex.baseUrl}/`,
      'http://127.0.0.1:1',
      'https://[::1]:99999',
      'https://user:pw@h.test',
    ),
  );
  const strOrValid = (valid: string | undefined) => fc.oneof(fc.constant(valid), nasty);

  it('baseUrl, apiKey, apiSecret, subAccountId', async () => {
    const result = await fc.check(
      fc.asyncProperty(
        url,
        strOrValid(credentials.apiKey),
        strOrValid(credentials.apiSecret),
        strOrValid(undefined),
        async (baseUrl, apiKey, apiSecret, subAccountId) => {
          let c: FuturesClient;
          try {
            c = client({ baseUrl, apiKey, apiSecret, ...(subAccountId === undefined ? {} : { subAccountId }) });
          } catch (error) {
            if (error instanceof ConfigurationError) return;
            throw new Error(`constructor threw ${describeThrown(error)}`);
          }
          for (const run of [() => c.account.balance(), () => c.orders.openOrders(), () => c.market.health()]) {
            const outcome = await settle(run);
            if (!outcome.ok) throw new Error(outcome.what);
          }
        },
      ),
      { numRuns: 150, seed: 20261126 },
    );
    const report = result.failed
      ? `${show(result.counterexample)}: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`
      : undefined;
    expect(report).toBeUndefined();
  });
});

describe('random stream url and token: a ConfigurationError at construction, or a stream whose errors are typed', () => {
  /** A WebSocket that records where it was sent and never opens (nothing leaves the process); CLOSED at once. */
  class InertWebSocket {
    static urls: string[] = [];
    readyState = 3;
    binaryType = 'blob';
    constructor(url: string | URL) {
      InertWebSocket.urls.push(String(url));
    }
    addEventListener(): void {}
    removeEventListener(): void {}
    send(): void {}
    close(): void {}
  }

  it('url, token (string or provider)', async () => {
    const c = client({ WebSocket: InertWebSocket as never });
    const token = fc.oneof(
      nasty,
      nasty.map((t) => () => t),
    );
    const result = await fc.check(
      fc.asyncProperty(
        fc.oneof(
          nasty,
          nasty.map((p) => `wss://h.test/${p}`),
        ),
        token,
        async (url, tok) => {
          let stream: ReturnType<FuturesClient['stream']>;
          try {
            stream = c.stream({ url, token: tok, heartbeatTimeoutMs: 0, reconnect: false });
          } catch (error) {
            if (error instanceof ConfigurationError) return;
            throw new Error(`stream() threw ${describeThrown(error)}`);
          }
          const untyped: unknown[] = [];
          stream.on('error', (error) => {
            if (!isFuturesError(error)) untyped.push(error);
          });
          await new Promise((resolve) => setTimeout(resolve, 0));
          await stream.close();
          if (untyped.length > 0) throw new Error(`error event not a FuturesError: ${describeThrown(untyped[0])}`);
        },
      ),
      { numRuns: 100, seed: 20261126 },
    );
    const report = result.failed
      ? `${show(result.counterexample)}: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`
      : undefined;
    expect(report).toBeUndefined();
    expect(InertWebSocket.urls.length).toBeGreaterThan(0);
  });
});
