// Runs inside headless Chromium: the SDK's browser build against the simulator, same origin.
import { ConfigurationError, FuturesClient, FuturesError, hmacSha256Hex } from 'futures-sdk';

interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

async function run(): Promise<Check[]> {
  const params = new URLSearchParams(location.search);
  const apiKey = params.get('key') ?? '';
  const secret = params.get('secret') ?? '';
  const checks: Check[] = [];
  const check = async (name: string, fn: () => Promise<string | undefined> | string | undefined) => {
    try {
      const detail = await fn();
      checks.push({ name, ok: true, ...(detail ? { detail } : {}) });
    } catch (err) {
      checks.push({ name, ok: false, detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    }
  };

  await check('apiSecret is refused in a browser', () => {
    try {
      new FuturesClient({ baseUrl: location.origin, apiKey, apiSecret: secret });
    } catch (err) {
      if (err instanceof ConfigurationError) return undefined;
      throw err;
    }
    throw new Error('constructor did not throw');
  });

  await check('dangerouslyAllowBrowser lets apiSecret through', () => {
    new FuturesClient({ baseUrl: location.origin, apiKey, apiSecret: secret, dangerouslyAllowBrowser: true });
    return undefined;
  });

  // A signer stands for a remote signing service: the page never holds the secret in the client.
  const client = new FuturesClient({
    baseUrl: location.origin,
    apiKey,
    signer: async (payload) => hmacSha256Hex(secret, payload),
  });

  await check('public market data', async () => {
    const { symbols } = await client.market.symbols();
    if (!symbols.includes('BTCUSDT')) throw new Error('BTCUSDT missing');
    return `${symbols.length} symbols`;
  });

  await check('signed read with a signer', async () => {
    const { positions } = await client.account.positions();
    return `${positions.length} positions`;
  });

  await check('order placed through fetch in the browser', async () => {
    const { order } = await client.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.001',
      price: '1000',
    });
    if (!/^[0-9a-f-]{36}$/.test(order.clientOrderId ?? '')) throw new Error('no UUID clientOrderId');
    return order.status;
  });

  await check('API errors are typed', async () => {
    try {
      await client.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0', price: '1' });
    } catch (err) {
      if (err instanceof FuturesError && err.name === 'RequestValidationError') return undefined;
      throw err;
    }
    throw new Error('no error');
  });
  await check('hooks and rateLimits() in the browser (issue 21)', async () => {
    const events: string[] = [];
    const seen: unknown[] = [];
    const observed = new FuturesClient({
      baseUrl: location.origin,
      apiKey,
      signer: async (payload) => hmacSha256Hex(secret, payload),
      hooks: {
        request: (event) => {
          events.push(`request ${event.endpoint} ${event.method} ${event.path}`);
          seen.push(event);
        },
        response: (event) => {
          events.push(`response ${event.endpoint} ${event.status ?? 'none'}`);
          seen.push(event);
        },
      },
    });
    const { order } = await observed.orders.create({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.001',
      price: '1000',
    });
    await observed.orders.cancel(order.id);
    const expected = [
      'request orders.create POST /v2/orders',
      'response orders.create 200',
      'request orders.cancel POST /v2/orders/:id/cancel',
      'response orders.cancel 200',
    ];
    if (events.join('|') !== expected.join('|')) throw new Error(`hook events: ${events.join(' | ')}`);
    const text = JSON.stringify(seen);
    if (text.includes(secret) || text.includes(apiKey.slice(0, 8)) || text.includes('signature')) {
      throw new Error('a hook event holds a credential or a signature');
    }
    const orders = observed.rateLimits().find((view) => view.bucket === 'orders');
    if (orders?.limit !== 300 || orders.used < 1) {
      throw new Error(`rateLimits(): ${JSON.stringify(observed.rateLimits())}`);
    }
    return `${events.length} hook events; orders bucket ${orders.used}/${orders.limit}`;
  });

  await check('account stream over the browser WebSocket, firehose filtered', async () => {
    const wsUrl = params.get('ws') ?? '';
    const jwt = params.get('jwt') ?? '';
    const stream = client.stream({ url: wsUrl, token: async () => jwt, symbols: ['BTCUSDT'] });
    const seen = new Set<string>();
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out; saw ${[...seen].join(',')}`)), 10_000);
        stream.on('error', (err) => reject(err));
        stream.on('full_snapshot', () => seen.add('full_snapshot'));
        stream.on('market', (message) => {
          if (message.symbol !== 'BTCUSDT') reject(new Error(`unwanted symbol ${message.symbol}`));
          seen.add('market');
          if (seen.has('full_snapshot')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    } finally {
      stream.close();
    }
    return [...seen].join(' + ');
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
