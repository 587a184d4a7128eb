import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  FuturesClient,
  type FuturesClientOptions,
  FuturesError,
  MarginSwitchError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from '../../src/index.ts';
import { API_KEY, API_SECRET } from '../helpers/client.ts';
import { samplePosition, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ keys: { [API_KEY]: API_SECRET } });
});
afterEach(async () => {
  await server.close();
});

const client = (extra: Partial<FuturesClientOptions> = {}) =>
  new FuturesClient({ baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET, retry: false, ...extra });
const route = 'GET /v2/positions';
const failWith = async (status: number, body: unknown, headers?: Record<string, string>) => {
  server.queue(route, { status, body, ...(headers ? { headers } : {}) });
  return client()
    .account.positions()
    .then(
      () => expect.unreachable('should reject'),
      (e: unknown) => e,
    );
};

describe('status → class', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
    [418, ApiError],
  ])('%i → %o', async (status, cls) => {
    const error = await failWith(status, { ok: false, error: `status ${status}` });
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(FuturesError);
    expect(error).toMatchObject({ status, error: `status ${status}`, method: 'GET', path: '/v2/positions' });
  });

  it('fills every envelope field and names the errorId in the message', async () => {
    const body = {
      ok: false,
      error: 'Leverage change blocked',
      code: 'OPEN_POSITION_LEVERAGE_GUARD',
      reason: 'open_position',
      stage: 'close',
      venueErrorCode: -2010,
      details: { msg: 'venue says no', code: -2010 },
      errorId: 'e-123',
    };
    const error = (await failWith(409, body)) as ConflictError;
    expect(error).toMatchObject({
      status: 409,
      error: 'Leverage change blocked',
      code: 'OPEN_POSITION_LEVERAGE_GUARD',
      reason: 'open_position',
      stage: 'close',
      venueErrorCode: -2010,
      details: { msg: 'venue says no', code: -2010 },
      errorId: 'e-123',
      body,
    });
    expect(error.isOpenPositionGuard).toBe(true);
    expect(error.message).toContain('Leverage change blocked');
    expect(error.message).toContain('e-123');
  });

  it('a 400 with reason max_order_notional_exceeded is recognisable', async () => {
    const error = (await failWith(400, {
      ok: false,
      error: 'Risk reject',
      reason: 'max_order_notional_exceeded',
    })) as BadRequestError;
    expect(error.isMaxNotionalExceeded).toBe(true);
  });

  it('a 429 carries retryAfterMs', async () => {
    const error = (await failWith(429, { ok: false, error: 'slow' }, { 'Retry-After': '7' })) as RateLimitError;
    expect(error.retryAfterMs).toBe(7_000);
  });

  it('a 2xx whose body says ok: false is an ApiError, not a success', async () => {
    const error = await failWith(200, { ok: false, error: 'Something failed' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ error: 'Something failed' });
  });
});

describe('close-and-switch-margin', () => {
  const closeAndSwitch = () =>
    client()
      .futures.closeAndSwitchMargin({ symbol: 'BTCUSDT', targetMarginType: 'ISOLATED' })
      .catch((e: unknown) => e);

  it('a 502 at stage switch is a MarginSwitchError listing what is already gone', async () => {
    server.queue('POST /v2/futures/close-and-switch-margin', {
      status: 502,
      body: {
        ok: false,
        error: 'Margin switch failed',
        stage: 'switch',
        closedPositions: [{ id: 'p1', venuePositionId: 'vp1', quantity: '0.5' }],
        canceledOrders: ['o1', 'o2'],
        details: { code: -4048 },
        errorId: 'e-9',
      },
    });
    const error = await closeAndSwitch();
    expect(error).toBeInstanceOf(MarginSwitchError);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({
      status: 502,
      stage: 'switch',
      closedPositions: [{ id: 'p1', venuePositionId: 'vp1', quantity: '0.5' }],
      canceledOrders: ['o1', 'o2'],
      details: { code: -4048 },
      errorId: 'e-9',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a 502 at stage close carries the venue code', async () => {
    server.queue('POST /v2/futures/close-and-switch-margin', {
      status: 502,
      body: { ok: false, error: 'ReduceOnly Order is rejected', stage: 'close', venueErrorCode: -2022, details: {} },
    });
    const error = await closeAndSwitch();
    expect(error).toMatchObject({ stage: 'close', venueErrorCode: -2022, closedPositions: [], canceledOrders: [] });
    expect(error).toBeInstanceOf(MarginSwitchError);
  });

  it('a 502 from another endpoint is a plain ServerError', async () => {
    const error = await failWith(502, { ok: false, error: 'upstream' });
    expect(error).toBeInstanceOf(ServerError);
    expect(error).not.toBeInstanceOf(MarginSwitchError);
  });
});

describe('bodies that are not the envelope', () => {
  it('an HTML 502 page is a ServerError with a readable message', async () => {
    server.queue(route, {
      status: 502,
      raw: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr>nginx</body></html>',
    });
    const error = (await client()
      .account.positions()
      .catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.error).toBe('502 Bad Gateway');
    expect(error.message).toContain('502 Bad Gateway');
    expect(error.message).not.toContain('<');
    expect(typeof error.body).toBe('string');
  });

  it('a non-JSON 2xx is a ResponseValidationError carrying the raw body', async () => {
    server.queue(route, { status: 200, raw: 'OK but not JSON', headers: { 'Content-Type': 'text/plain' } });
    const error = await client()
      .account.positions()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe('OK but not JSON');
  });

  it('an empty 2xx body is a ResponseValidationError', async () => {
    server.queue(route, { status: 200, raw: '' });
    await expect(client().account.positions()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('a missing required field is a ResponseValidationError naming the path', async () => {
    const position = samplePosition();
    delete position['symbol'];
    server.queue(route, { status: 200, body: { ok: true, positions: [position] } });
    const error = (await client()
      .account.positions()
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual([['positions', 0, 'symbol']]);
    expect(error.message).toContain('positions.0.symbol');
    expect(error.body).toEqual({ ok: true, positions: [position] });
  });

  it('unknown extra fields and unknown enum values are kept', async () => {
    server.queue(route, {
      status: 200,
      body: { ok: true, extra: 1, positions: [samplePosition({ status: 'LIQUIDATING', venueField: 'x' })] },
    });
    const result = await client().account.positions();
    expect(result).toMatchObject({ extra: 1, positions: [{ status: 'LIQUIDATING', venueField: 'x' }] });
  });
});

describe('nothing but FuturesError ever rejects', () => {
  const cases: Array<[string, Partial<FuturesClientOptions>, new (...args: never[]) => FuturesError]> = [
    ['a connection reset', {}, ConnectionError],
    ['a fetch that throws a string', { fetch: (() => Promise.reject('boom')) as typeof fetch }, ConnectionError],
    [
      'a fetch that throws synchronously',
      {
        fetch: (() => {
          throw new Error('sync');
        }) as typeof fetch,
      },
      ConnectionError,
    ],
    [
      'a fetch that resolves a non-Response',
      { fetch: (() => Promise.resolve({})) as unknown as typeof fetch },
      FuturesError,
    ],
    [
      'a signer that throws',
      {
        apiSecret: undefined,
        signer: () => {
          throw new Error('kms down');
        },
      },
      FuturesError,
    ],
    ['a signer that returns nothing', { apiSecret: undefined, signer: () => '' }, FuturesError],
  ];

  it.each(cases)('%s', async (_, options, cls) => {
    server.queue(route, { reset: true });
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = client(options).account.positions();
    }).not.toThrow();
    const error = await promise!.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(FuturesError);
  });

  it('a refused connection is a ConnectionError flagged refused', async () => {
    const closed = await startTestServer();
    const baseUrl = closed.url;
    await closed.close();
    const error = await client({ baseUrl })
      .market.health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).refused).toBe(true);
  });

  it('a throwing logger never breaks a request', async () => {
    const logger = {
      debug: () => {
        throw new Error('x');
      },
      info: () => {},
      warn: () => {},
      error: () => {},
    };
    await expect(client({ logger }).account.positions()).resolves.toMatchObject({ ok: true });
  });

  it('invalid params reject (not throw) with RequestValidationError naming the field, before any network', async () => {
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = client().orders.create({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: 0.1 as unknown as string,
      });
    }).not.toThrow();
    const error = (await promise!.catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0]?.path).toEqual(['quantity']);
    expect(server.requests).toHaveLength(0);
  });

  it('a timeout is a TimeoutError', async () => {
    server.queue(route, { delayMs: 2_000 });
    await expect(client({ timeoutMs: 50 }).account.positions()).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('errors you build and errors a client hands you', () => {
  it('an error you construct keeps your words and your cause; JSON shows name and message', () => {
    const cause = new Error('socket hang up');
    const err = new FuturesError('Reconciliation failed ?signature=abcdef', { details: 'BTCUSDT', cause });
    expect(err.message).toBe('Reconciliation failed ?signature=abcdef\n\nDetails: BTCUSDT');
    expect(err.cause).toBe(cause);
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({
      name: 'FuturesError',
      message: err.message,
      shortMessage: 'Reconciliation failed ?signature=abcdef',
      outcomeUnknown: false,
    });
  });

  it('an error leaving a client has a sanitised, scrubbed cause and scrubbed JSON and inspect views', async () => {
    const leaky = Object.assign(new Error(`upstream said: ${API_SECRET}`), {
      request: { headers: { 'X-API-KEY': API_KEY } },
      code: 'EPIPE',
    });
    const err = await client({ fetch: () => Promise.reject(leaky) })
      .account.positions()
      .then(
        () => expect.unreachable('should reject'),
        (e: unknown) => e as FuturesError,
      );
    const cause = err.cause as Error & { code?: string; request?: unknown };
    expect(cause).not.toBe(leaky);
    expect(cause.code).toBe('EPIPE');
    expect(cause.request).toBeUndefined();
    const { inspect } = await import('node:util');
    for (const text of [String(err), cause.message, JSON.stringify(err), inspect(err)]) {
      expect(text).not.toContain(API_SECRET.slice(0, 8));
      expect(text).not.toContain(API_KEY.slice(0, 8));
    }
    expect(inspect(err)).toContain(err.name);
  });
});
