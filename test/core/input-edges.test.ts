/**
 * Input edges: a `timeoutMs` a timer would mangle, and hostile arguments (throwing getters, revoked Proxies,
 * Proxies whose traps throw) in the params and in the options of every public method. Each must become a typed
 * error before any network, never a TypeError and never a request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  ConfigurationError,
  FuturesClient,
  FuturesError,
  RequestValidationError,
} from '../../src/index.ts';
import { recordingFetch, testClient } from '../actions/_recording-fetch.ts';
import { API_KEY, API_SECRET } from '../helpers/client.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let client: FuturesClient;
beforeAll(async () => {
  server = await startTestServer({ keys: { [API_KEY]: API_SECRET } });
  client = new FuturesClient({ baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET, retry: false });
});
afterAll(async () => {
  await server.close();
});

const BAD_TIMEOUTS: Array<[string, unknown]> = [
  ['Infinity', Number.POSITIVE_INFINITY],
  ['2**31', 2 ** 31],
  ['-1', -1],
  ['0', 0],
  ['NaN', Number.NaN],
  ['1.5', 1.5],
  ["'100'", '100'],
];

describe('timeoutMs must be an integer from 1 to 2147483647', () => {
  it.each(BAD_TIMEOUTS)('the client option %s is a ConfigurationError at construction', (_, timeoutMs) => {
    expect(
      () =>
        new FuturesClient({
          baseUrl: server.url,
          apiKey: API_KEY,
          apiSecret: API_SECRET,
          timeoutMs: timeoutMs as number,
        }),
    ).toThrow(ConfigurationError);
  });

  it.each(BAD_TIMEOUTS)(
    'the per-call option %s rejects with RequestValidationError before any network',
    async (_, timeoutMs) => {
      const before = server.requests.length;
      const calls = [
        client.orders.create(
          { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' },
          { timeoutMs: timeoutMs as number },
        ),
        client.orders.cancel('ord-1', {}, { timeoutMs: timeoutMs as number }),
        client.account.balance(undefined, { timeoutMs: timeoutMs as number }),
        client.market.health({ timeoutMs: timeoutMs as number }),
      ];
      for (const call of calls) {
        const error = await call.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RequestValidationError);
        expect((error as RequestValidationError).issues[0]?.path).toEqual(['options', 'timeoutMs']);
      }
      expect(server.requests.length).toBe(before);
    },
  );

  it('the bounds themselves are accepted', async () => {
    expect(() => new FuturesClient({ baseUrl: server.url, timeoutMs: 2_147_483_647 })).not.toThrow();
    expect(() => new FuturesClient({ baseUrl: server.url, timeoutMs: 1 })).not.toThrow();
    await expect(client.market.health({ timeoutMs: 2_147_483_647 })).resolves.toMatchObject({ ok: true });
  });
});

// ── Every resource method, every argument, every hostile value ─────────────────────────────────────────────

const limit = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' };

/** Valid arguments (all but the trailing options) for every public resource method. */
const VALID_ARGS: Record<string, Record<string, unknown[]>> = {
  orders: {
    create: [limit],
    createBatch: [[limit]],
    findByClientOrderId: ['my-order-1', { symbol: 'BTCUSDT', maxPages: 2 }],
    list: [{ symbol: 'BTCUSDT' }],
    listAll: [{ symbol: 'BTCUSDT' }],
    get: ['ord-1'],
    cancel: ['ord-1', {}],
    cancelAll: [{ symbol: 'BTCUSDT' }],
    replace: ['ord-1', limit],
    closePosition: [{ positionId: 'pos-1' }],
    openOrders: [{ symbol: 'BTCUSDT' }],
    myTrades: [{ symbol: 'BTCUSDT' }],
    positionHistory: [{}],
  },
  futures: {
    setLeverage: [{ symbol: 'BTCUSDT', leverage: 5 }],
    setMarginType: [{ symbol: 'BTCUSDT', marginType: 'ISOLATED' }],
    closeAndSwitchMargin: [{ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' }],
    setPositionMode: [{ positionMode: 'HEDGE' }],
  },
  account: {
    balance: [{}],
    positions: [{}],
    exposure: [],
    transfers: [{}],
    transfersAll: [{}],
    activities: [{}],
    activitiesAll: [{}],
    pnlHistory: [{}],
    spotBalances: ['acc-1'],
  },
  market: {
    health: [],
    symbols: [],
    ticker24hr: [{ symbol: 'BTCUSDT' }],
    depth: [{ symbol: 'BTCUSDT' }],
    trades: [{ symbol: 'BTCUSDT' }],
    fundingRate: [{ symbol: 'BTCUSDT' }],
    klines: [{ symbol: 'BTCUSDT', interval: '1h' }],
    leaderboard: [{ type: 'volume' }],
    platformTokens: [],
    platformStatus: [],
  },
};

const boom = () => {
  throw new Error('hostile');
};

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingTraps(target: object): object {
  return new Proxy(target, {
    get: boom,
    has: boom,
    ownKeys: boom,
    getOwnPropertyDescriptor: boom,
    getPrototypeOf: boom,
  });
}

/** A copy of `value` whose property `key` is a getter that throws. */
function withThrowingGetter(value: object, key: string | number): object {
  const copy: object = Array.isArray(value) ? [...value] : { ...value };
  Object.defineProperty(copy, key, { get: boom, enumerable: true, configurable: true });
  return copy;
}

/** Hostile stand-ins for a valid argument. */
function hostileVariants(valid: unknown): Array<[string, unknown]> {
  const variants: Array<[string, unknown]> = [
    ['a revoked Proxy', revokedProxy()],
    ['a Proxy whose traps throw', throwingTraps(Array.isArray(valid) ? [] : {})],
  ];
  if (typeof valid === 'object' && valid !== null) {
    const keys = Array.isArray(valid) ? [0] : Object.keys(valid);
    for (const key of keys) variants.push([`a throwing getter on ${String(key)}`, withThrowingGetter(valid, key)]);
    if (keys.length > 0) {
      variants.push(['a Proxy of the valid value whose get trap throws', new Proxy(valid, { get: boom })]);
    }
  }
  return variants;
}

const HOSTILE_OPTIONS: Array<[string, unknown]> = [
  ['a revoked Proxy', revokedProxy()],
  ['a Proxy whose traps throw', throwingTraps({})],
  ['a throwing signal getter', withThrowingGetter({}, 'signal')],
  ['a throwing timeoutMs getter', withThrowingGetter({}, 'timeoutMs')],
  ['a signal that is not an AbortSignal', { signal: { aborted: false } }],
  ['a string', 'fast'],
];

type AnyMethod = (...args: unknown[]) => unknown;

/** Calls a method and settles it: a promise is awaited, an async generator is pulled once. */
async function settle(resource: object, name: string, args: unknown[]): Promise<unknown> {
  let result: unknown;
  try {
    result = ((resource as Record<string, AnyMethod>)[name] as AnyMethod).apply(resource, args);
  } catch (error) {
    return { threwSynchronously: error };
  }
  try {
    if (typeof (result as AsyncGenerator).next === 'function') {
      const generator = result as AsyncGenerator;
      await generator.next();
      await generator.return(undefined);
      return undefined;
    }
    return await result;
  } catch (error) {
    return error;
  }
}

describe('hostile arguments reject with RequestValidationError from every public method, before any network', () => {
  it('the table covers every resource method', () => {
    for (const [resourceName, methods] of Object.entries(VALID_ARGS)) {
      const resource = (client as unknown as Record<string, object>)[resourceName]!;
      const names = Object.getOwnPropertyNames(Object.getPrototypeOf(resource)).filter((n) => n !== 'constructor');
      expect(Object.keys(methods).sort(), resourceName).toEqual(names.sort());
    }
  });

  it('the valid arguments pass validation (an aborted signal then ends the call, not a validation error)', async () => {
    const before = server.requests.length;
    for (const [resourceName, methods] of Object.entries(VALID_ARGS)) {
      const resource = (client as unknown as Record<string, object>)[resourceName]!;
      for (const [name, args] of Object.entries(methods)) {
        const outcome = await settle(resource, name, [...args, { signal: AbortSignal.abort() }]);
        expect(outcome, `${resourceName}.${name}`).toBeInstanceOf(AbortError);
      }
    }
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('every argument position and every option, with every hostile value', async () => {
    const before = server.requests.length;
    let checked = 0;
    const wrong: string[] = [];
    for (const [resourceName, methods] of Object.entries(VALID_ARGS)) {
      const resource = (client as unknown as Record<string, object>)[resourceName]!;
      for (const [name, validArgs] of Object.entries(methods)) {
        const cases: Array<[string, unknown[]]> = [];
        validArgs.forEach((valid, position) => {
          for (const [label, hostile] of hostileVariants(valid)) {
            const args = [...validArgs];
            args[position] = hostile;
            cases.push([`argument ${position}: ${label}`, args]);
          }
        });
        for (const [label, hostile] of HOSTILE_OPTIONS) cases.push([`options: ${label}`, [...validArgs, hostile]]);
        for (const [label, args] of cases) {
          const outcome = await settle(resource, name, args);
          checked++;
          if (!(outcome instanceof RequestValidationError)) {
            wrong.push(`${resourceName}.${name} with ${label}: ${String(outcome)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(200);
    expect(server.requests.length).toBe(before);
  });

  it('the error names the argument and is a FuturesError like every other failure', async () => {
    const error = await client.orders.cancel('ord-1', {}, revokedProxy() as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FuturesError);
    expect((error as RequestValidationError).issues[0]?.path).toEqual(['options']);
    expect(String(error)).toContain('POST /v2/orders/ord-1/cancel');
  });
});

describe('hostile client options', () => {
  it('a throwing getter or a revoked Proxy as options is a ConfigurationError, not a TypeError', () => {
    const throwing = Object.defineProperty({ baseUrl: 'https://api.example.com' }, 'apiKey', {
      enumerable: true,
      get() {
        throw new TypeError('boom');
      },
    });
    const { proxy, revoke } = Proxy.revocable({ baseUrl: 'https://api.example.com' }, {});
    revoke();
    const nested = {
      baseUrl: 'https://api.example.com',
      retry: new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      ),
    };
    for (const options of [throwing, proxy, nested]) {
      expect(() => new FuturesClient(options as never)).toThrow(ConfigurationError);
    }
  });
});

// ── Path ids (contract, "Requests"): refused before any network when a proxy could re-route them ────────────

describe('path ids that could leave their URL segment are RequestValidationErrors, and nothing is sent', () => {
  const BAD_IDS: Array<[string, string, RegExp]> = [
    ['empty', '', /must not be empty/],
    ['.', '.', /must not be '\.' or '\.\.'/],
    ['..', '..', /must not be '\.' or '\.\.'/],
    ['a slash', 'ord_5/../ord_6', /must not contain '\/'/],
    ['a backslash', 'ord_5\\..\\ord_6', /must not contain '\\'/],
    ['a question mark', 'ord_5?x=1', /must not contain '\?'/],
    ['a hash', 'ord_5#x', /must not contain '#'/],
    ['a percent sign', '%2e%2e', /must not contain '%'/],
    ['a space', 'ord 5', /whitespace or control characters \(found U\+0020\)/],
    ['a tab', 'ord\t5', /found U\+0009/],
    ['a newline', 'ord_5\n', /found U\+000A/],
    ['NUL', 'ord\u00005', /found U\+0000/],
    ['DEL', 'ord\u007f5', /found U\+007F/],
    ['a C1 control (NEL)', 'ord\u00855', /found U\+0085/],
    ['a no-break space', 'ord\u00a05', /found U\+00A0/],
    ['an ideographic space', 'ord\u30005', /found U\+3000/],
    ['a byte-order mark', '\ufefford5', /found U\+FEFF/],
    ['a lone high surrogate', 'ord\ud800', /lone surrogate \(found U\+D800\)/],
    ['a lone low surrogate', '\udc00ord', /lone surrogate \(found U\+DC00\)/],
  ];
  const CALLS: Array<[string, (c: FuturesClient, id: string) => Promise<unknown>]> = [
    ['orders.get (id)', (c, id) => c.orders.get(id)],
    ['orders.cancel (id)', (c, id) => c.orders.cancel(id)],
    ['orders.replace (id)', (c, id) => c.orders.replace(id, limit as never)],
    ['account.spotBalances (accountId)', (c, id) => c.account.spotBalances(id)],
  ];

  it.each(BAD_IDS)('%s', async (_, id, reason) => {
    const { fetch, requests } = recordingFetch({});
    const c = testClient(fetch);
    for (const [field, call] of CALLS) {
      const error = await call(c, id).catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(RequestValidationError);
      expect((error as Error).message, field).toContain(field);
      expect((error as Error).message, field).toMatch(reason);
    }
    expect(requests).toEqual([]);
  });

  it('other characters are percent-encoded and sent: non-ASCII letters, emoji (a valid pair), punctuation', async () => {
    const { fetch, requests } = recordingFetch({});
    const c = testClient(fetch, { retry: false });
    for (const [, call] of CALLS) await call(c, 'ordé_😀:1').catch(() => undefined);
    expect(requests.map((r) => r.rawPath)).toEqual([
      '/v2/orders/ord%C3%A9_%F0%9F%98%80%3A1',
      '/v2/orders/ord%C3%A9_%F0%9F%98%80%3A1/cancel',
      '/v2/orders/ord%C3%A9_%F0%9F%98%80%3A1/cancel', // replace cancels first; the canned 404 ends it there
      '/v2/accounts/ord%C3%A9_%F0%9F%98%80%3A1/balances',
    ]);
  });
});
