// Runs inside headless Chromium on one 127.0.0.1 port against the simulator's loopback server on another
// (`ex.listen({ cors: true })`): every signed call is preflighted, and the client must read `Date`.
import { FuturesClient, FuturesError, hmacSha256Hex, RateLimitError } from 'futures-sdk';

interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

async function run(): Promise<Check[]> {
  const params = new URLSearchParams(location.search);
  const api = params.get('api') ?? '';
  const closedApi = params.get('closed') ?? '';
  const apiKey = params.get('key') ?? '';
  const secret = params.get('secret') ?? '';
  const checks: Check[] = [];
  const check = async (name: string, fn: () => Promise<string | undefined>) => {
    try {
      const detail = await fn();
      checks.push({ name, ok: true, ...(detail ? { detail } : {}) });
    } catch (err) {
      checks.push({ name, ok: false, detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    }
  };
  if (new URL(api).origin === location.origin) throw new Error('the API must be on another origin');

  // A signer stands for a remote signing service, as a dashboard would use.
  const client = new FuturesClient({
    baseUrl: api,
    apiKey,
    signer: async (payload) => hmacSha256Hex(secret, payload),
    retry: { limit: 1 },
  });

  await check(
    'cross-origin: the server clock is 30 s ahead; the client re-syncs from the exposed Date header',
    async () => {
      const { positions } = await client.account.positions();
      return `${positions.length} positions`;
    },
  );

  await check('cross-origin: signed order (POST with X-API-KEY and JSON, preflighted) and its cancel', async () => {
    const { order } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.001',
      price: '1000',
    });
    await client.orders.cancel(order.id);
    const { orders } = await client.orders.list({ status: 'CANCELED' });
    if (!orders.some((o) => o.id === order.id)) throw new Error('cancelled order not listed');
    return order.id;
  });

  await check('cross-origin: Date and Retry-After are readable by the page', async () => {
    const health = await fetch(`${api}/health`);
    const date = health.headers.get('date');
    if (!date) throw new Error('Date not exposed');
    // The test arms a 429 with Retry-After: 1 on GET /v2/funding-rate for this check.
    const limited = await fetch(`${api}/v2/funding-rate?symbol=BTCUSDT`);
    if (limited.status !== 429) throw new Error(`expected 429, got ${limited.status}`);
    const retryAfter = limited.headers.get('retry-after');
    if (retryAfter !== '1') throw new Error(`Retry-After read as ${retryAfter}`);
    return `Date: ${date}; Retry-After: ${retryAfter}`;
  });

  await check('cross-origin: a 429 reaches the client as RateLimitError with its retry delay', async () => {
    try {
      await client.market.fundingRate({ symbol: 'BTCUSDT' });
    } catch (err) {
      if (err instanceof RateLimitError) return `retryAfterMs ${err.retryAfterMs}`;
      throw err;
    }
    throw new Error('no error');
  });

  await check('control: the same call to a server without cors is blocked by the browser', async () => {
    try {
      await fetch(`${closedApi}/health`);
    } catch (err) {
      if (err instanceof TypeError) return 'blocked';
      throw err;
    }
    throw new Error('a server without cors was readable cross-origin');
  });

  await check('errors stay typed across origins', async () => {
    try {
      await client.orders.get('no-such-order');
    } catch (err) {
      if (err instanceof FuturesError) return err.name;
      throw err;
    }
    throw new Error('no error');
  });
  return checks;
}

declare global {
  interface Window {
    __results?: Check[] | { fatal: string };
  }
}

run().then(
  (checks) => {
    window.__results = checks;
  },
  (err: unknown) => {
    window.__results = { fatal: String(err) };
  },
);
