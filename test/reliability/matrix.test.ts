import { inspect } from 'node:util';
import {
  AuthenticationError,
  ConnectionError,
  FuturesClient,
  type FuturesError,
  RateLimitError,
  RedirectError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from 'futures-sdk';
import { createExchange, type Exchange } from 'futures-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fault, type FaultProxy, startFaultProxy, startRecorder } from './fault-proxy.ts';

// The request core under faults as they happen on a real wire, for every class of endpoint safety: a real
// simulator server (it acts on what reaches it), a fault-injecting proxy in front of it, one fresh account per
// case. Asserted for every case: the call settles, its failure is the right FuturesError with the right
// `outcomeUnknown`, no order is ever placed twice, and no rendering of the error leaks a credential.

type Safety = 'create' | 'at-most-once' | 'idempotent' | 'read';

interface Rig {
  client: FuturesClient;
  apiKey: string;
  apiSecret: string;
  accountId: string;
  restingOrderId: string;
  positionId: string;
  /** The client's warn lines (retries are announced there). */
  warnings: string[];
}

interface Endpoint {
  name: string;
  safety: Safety;
  route(rig: Rig): string;
  call(rig: Rig): Promise<unknown>;
}

const SYMBOL = 'BTCUSDT';
const endpoints: Endpoint[] = [
  {
    name: 'orders.create',
    safety: 'create',
    route: () => 'POST /v2/orders',
    call: ({ client }) =>
      client.orders.create({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '1000' }),
  },
  {
    name: 'orders.cancel',
    safety: 'at-most-once',
    route: (rig) => `POST /v2/orders/${rig.restingOrderId}/cancel`,
    call: (rig) => rig.client.orders.cancel(rig.restingOrderId),
  },
  {
    name: 'orders.closePosition',
    safety: 'at-most-once',
    route: () => 'POST /v2/positions/close',
    call: (rig) => rig.client.orders.closePosition({ positionId: rig.positionId }),
  },
  {
    name: 'orders.cancelAll',
    safety: 'idempotent',
    route: () => 'DELETE /v2/orders/open',
    call: ({ client }) => client.orders.cancelAll({ symbol: SYMBOL }),
  },
  {
    name: 'futures.setLeverage',
    safety: 'idempotent',
    route: () => 'POST /v2/futures/leverage',
    call: ({ client }) => client.futures.setLeverage({ symbol: 'ETHUSDT', leverage: 7 }),
  },
  {
    name: 'account.balance',
    safety: 'read',
    route: () => 'GET /v2/futures/balance',
    call: ({ client }) => client.account.balance(),
  },
];

/** What a case must end in. `unknown` is `outcomeUnknown`. */
type Expected = { ok: true } | { error: new (...args: never[]) => FuturesError; unknown: boolean };

interface Scenario {
  name: string;
  /** A fault queued once for the endpoint's route (the retry, if any, passes through). */
  fault?: Fault | ((recorderUrl: string) => Fault);
  /** A base URL other than the proxy (DNS failure, refused connection). */
  baseUrl?: () => string;
  expect(safety: Safety): Expected;
}

const json = (status: number, error: string, headers: Record<string, string> = {}): Fault => ({
  kind: 'answer',
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify({ ok: false, error, errorId: 'err-proxy' }),
});
const retriedOrUnknown =
  (error: Expected extends infer E ? (E extends { error: infer C } ? C : never) : never) =>
  (safety: Safety): Expected =>
    safety === 'at-most-once' ? { error, unknown: true } : { ok: true };
const actedBodyUnreadable = (safety: Safety): Expected => ({
  error: ResponseValidationError,
  unknown: safety !== 'read',
});
const retriedAfter429 = (): Expected => ({ ok: true });

let closedPort = 0;
const scenarios: Scenario[] = [
  { name: 'stall after the headers', fault: { kind: 'stall-after-headers' }, expect: retriedOrUnknown(TimeoutError) },
  {
    name: 'drop after the server acted',
    fault: { kind: 'drop-after-acting' },
    expect: retriedOrUnknown(ConnectionError),
  },
  { name: '503 JSON', fault: json(503, 'Service unavailable'), expect: retriedOrUnknown(ServerError) },
  {
    name: '502 HTML from a proxy',
    fault: {
      kind: 'answer',
      status: 502,
      headers: { 'Content-Type': 'text/html' },
      body: '<html>502 Bad Gateway</html>',
    },
    expect: retriedOrUnknown(ServerError),
  },
  { name: '200 with a truncated body', fault: { kind: 'truncated' }, expect: actedBodyUnreadable },
  { name: '200 with an empty body', fault: { kind: 'empty' }, expect: actedBodyUnreadable },
  {
    name: '429 Retry-After: 1',
    fault: json(429, 'Too many requests', { 'Retry-After': '1' }),
    expect: retriedAfter429,
  },
  {
    name: '429 Retry-After: 0.5',
    fault: json(429, 'Too many requests', { 'Retry-After': '0.5' }),
    expect: retriedAfter429,
  },
  {
    name: '429 Retry-After: an HTTP date 2 s ahead',
    fault: () => json(429, 'Too many requests', { 'Retry-After': new Date(Date.now() + 2_000).toUTCString() }),
    expect: retriedAfter429,
  },
  {
    name: '429 Retry-After: a past HTTP date',
    fault: json(429, 'Too many requests', { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' }),
    expect: retriedAfter429,
  },
  {
    name: '429 Retry-After: garbage',
    fault: json(429, 'Too many requests', { 'Retry-After': 'soon' }),
    expect: retriedAfter429,
  },
  { name: '429 without Retry-After', fault: json(429, 'Too many requests'), expect: retriedAfter429 },
  {
    name: '429 Retry-After: 3600 (over maxRetryAfterMs)',
    fault: json(429, 'Too many requests', { 'Retry-After': '3600' }),
    expect: () => ({ error: RateLimitError, unknown: false }),
  },
  {
    name: '307 to another origin',
    fault: (recorder) => ({
      kind: 'answer',
      status: 307,
      headers: { Location: `${recorder}/v2/orders?timestamp=1&signature=abc` },
      body: '',
    }),
    expect: (safety) => ({ error: RedirectError, unknown: safety !== 'read' }),
  },
  {
    // A retrying proxy (or an eavesdropper) delivered a copy first: the server acted on the copy and answers the
    // call itself 401. Safe calls go again with a fresh signature; cancel and close cannot know what happened.
    name: 'a copy arrived first (401 Signature replay detected)',
    fault: { kind: 'duplicate' },
    expect: (safety) => (safety === 'at-most-once' ? { error: AuthenticationError, unknown: true } : { ok: true }),
  },
  {
    name: 'DNS failure',
    baseUrl: () => 'https://futures-sdk-reliability.invalid',
    expect: () => ({ error: ConnectionError, unknown: false }),
  },
  {
    name: 'connection refused',
    baseUrl: () => `http://127.0.0.1:${closedPort}`,
    expect: () => ({ error: ConnectionError, unknown: false }),
  },
];

let ex: Exchange;
let upstream: { url: string; close(): Promise<void> };
let proxy: FaultProxy;
let recorder: Awaited<ReturnType<typeof startRecorder>>;

async function makeRig(baseUrl: string): Promise<Rig> {
  const { accountId } = ex.createAccount({ balances: { USDT: '1000000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  // Set up straight on the simulator, so the faults queued on the proxy meet only the call under test.
  const direct = new FuturesClient({ baseUrl: upstream.url, apiKey, apiSecret });
  const { order } = await direct.orders.create({
    symbol: SYMBOL,
    side: 'BUY',
    type: 'LIMIT',
    quantity: '0.01',
    price: '1000',
  });
  await direct.orders.create({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.01' });
  // The sync tick (every 20 ms here) brings the fill into the database view that GET /v2/positions reads.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const { positions } = await direct.account.positions();
  const position = positions.find((p) => p.symbol === SYMBOL);
  if (!position) throw new Error('setup: no position');
  const warnings: string[] = [];
  const quiet = () => {};
  const client = new FuturesClient({
    baseUrl,
    apiKey,
    apiSecret,
    logger: { debug: quiet, info: quiet, error: quiet, warn: (line) => warnings.push(line) },
    // Generous for a loaded CI machine: only the stall scenario waits it out.
    timeoutMs: 2_500,
    retry: { limit: 2, baseDelayMs: 20, maxDelayMs: 50 },
  });
  return { client, apiKey, apiSecret, accountId, restingOrderId: order.id, positionId: position.id, warnings };
}

/** Every 5-character window of `value` (the contract: no 5 consecutive characters of the key, ever). */
function windows(value: string, size = 5): string[] {
  const out: string[] = [];
  for (let i = 0; i + size <= value.length; i++) out.push(value.slice(i, i + size));
  return out;
}

beforeAll(async () => {
  ex = createExchange({ seed: 41, volatility: 0, syncIntervalMs: 20 });
  ex.setMarkPrice(SYMBOL, '60000');
  ex.setMarkPrice('ETHUSDT', '3000');
  upstream = await ex.listen();
  proxy = await startFaultProxy(upstream.url);
  recorder = await startRecorder();
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  await proxy?.close();
  await recorder?.close();
  await upstream?.close();
});

describe('reliability matrix: every fault × every endpoint safety class', () => {
  const cases = scenarios.flatMap((scenario) => endpoints.map((endpoint) => ({ scenario, endpoint })));

  it(`${cases.length} calls settle as a user must be told, with no duplicate order and no leak`, async () => {
    const outcomes = await Promise.all(
      cases.map(async ({ scenario, endpoint }) => {
        const rig = await makeRig(scenario.baseUrl?.() ?? proxy.url);
        if (scenario.fault) {
          const fault = typeof scenario.fault === 'function' ? scenario.fault(recorder.url) : scenario.fault;
          proxy.queue(`${endpoint.route(rig)} for ${rig.apiKey}`, fault);
        }
        const started = Date.now();
        const result = await endpoint.call(rig).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        return { scenario, endpoint, rig, result, ms: Date.now() - started };
      }),
    );

    const problems: string[] = [];
    for (const { scenario, endpoint, rig, result, ms } of outcomes) {
      const label = `${scenario.name} / ${endpoint.name}`;
      const expected = scenario.expect(endpoint.safety);
      if (ms > 20_000) problems.push(`${label}: took ${ms} ms`);
      if ('ok' in expected) {
        if ('error' in result) problems.push(`${label}: expected success, got ${String(result.error)}`);
        continue;
      }
      if (!('error' in result)) {
        problems.push(`${label}: expected ${expected.error.name}, got success`);
        continue;
      }
      const error = result.error;
      if (!(error instanceof expected.error)) {
        problems.push(`${label}: expected ${expected.error.name}, got ${String(error)}`);
        continue;
      }
      if (error.outcomeUnknown !== expected.unknown) {
        problems.push(`${label}: outcomeUnknown ${error.outcomeUnknown}, expected ${expected.unknown}`);
      }
      const renderings = [
        String(error),
        error.message,
        error.stack ?? '',
        JSON.stringify(error),
        inspect(error, { depth: 8 }),
      ];
      const signatures = proxy.requests.filter((r) => r.apiKey === rig.apiKey).flatMap((r) => r.signature ?? []);
      for (const text of renderings) {
        for (const piece of windows(rig.apiKey))
          if (text.includes(piece)) problems.push(`${label}: leaks key part ${piece}`);
        for (const piece of windows(rig.apiSecret, 8))
          if (text.includes(piece)) problems.push(`${label}: leaks the secret`);
        for (const signature of signatures) if (text.includes(signature)) problems.push(`${label}: leaks a signature`);
      }
      if (error instanceof ConnectionError && scenario.baseUrl) {
        if (!error.neverSent) problems.push(`${label}: neverSent should be true`);
        // Nothing was sent, so even cancel and close are retried, to the limit (2).
        const retries = rig.warnings.filter((line) => / retry \d+\/2 /.test(line)).length;
        if (retries !== 2) problems.push(`${label}: ${retries} retries, expected 2`);
        if (!/ENOTFOUND|EAI_AGAIN|ECONNREFUSED/.test(String(error)))
          problems.push(`${label}: no cause code in ${String(error)}`);
      }
      if (error instanceof RateLimitError && error.retryAfterMs !== 3_600_000) {
        problems.push(`${label}: retryAfterMs ${error.retryAfterMs}`);
      }
    }
    expect(problems).toEqual([]);

    // Never twice: each create call placed at most one order, whatever was retried.
    const byClientOrderId = new Map<string, number>();
    for (const { rig } of outcomes) {
      for (const order of ex.account(rig.accountId).orders) {
        const id = order.clientOrderId;
        if (typeof id !== 'string') continue; // closing orders of closePosition are the server's own
        byClientOrderId.set(id, (byClientOrderId.get(id) ?? 0) + 1);
      }
    }
    expect([...byClientOrderId].filter(([, count]) => count > 1)).toEqual([]);
    // The other origin of the redirect never heard of us.
    expect(recorder.hits).toEqual([]);
  }, 60_000);
});
