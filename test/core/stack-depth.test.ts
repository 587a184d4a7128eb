// How many of the SDK's own functions stand between a resource method and `fetch` (issue 19: at most 8 for
// `client.orders.create`: resource method → endpoint function → callEndpoint → journal → transport.call → run →
// attempt → the fetch wrapper). Read from `new Error().stack` inside a custom fetch, V8's async frames included,
// counting the frames whose file is in src/. Every SDK function on the way awaits what it returns, so the chain is
// complete: the test's own frame is on the stack too (a failure's stack trace shows where the user called from).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create } from '../../src/endpoints/orders/index.ts';
import { createBaseClient, FuturesClient, type FuturesClientOptions } from '../../src/index.ts';
import { order, position } from '../actions/_fixtures.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);
const MAX_SDK_FRAMES = 8;

let stackTraceLimit: number;
beforeAll(() => {
  stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
});
afterAll(() => {
  Error.stackTraceLimit = stackTraceLimit;
});

const market = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' } as const;

function clientOptions(answer: unknown, record: (stack: string) => void): FuturesClientOptions {
  return {
    baseUrl: 'https://api.example.test',
    apiKey: 'test-api-key-0001',
    apiSecret: 'test-secret',
    fetch: async () => {
      record(new Error('fetch').stack ?? '');
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  };
}

/** The stack `fetch` was called on: the SDK frames (innermost first, as `function (src/file)`) and the whole of it. */
async function framesOf(
  call: (client: FuturesClient) => Promise<unknown>,
  answer: unknown,
  options: Partial<FuturesClientOptions> = {},
): Promise<{ sdk: string[]; stack: string }> {
  let stack = '';
  await call(new FuturesClient({ ...clientOptions(answer, (s) => (stack = s)), ...options }));
  const sdk = stack
    .split('\n')
    .slice(1)
    .filter((line) => line.includes(SRC))
    .map((line) =>
      line
        .trim()
        .replace(/^at (async )?/, '')
        .replace(SRC, 'src/')
        .replace(/:\d+:\d+\)?$/, ')'),
    );
  return { sdk, stack };
}

const created = { ok: true, order: order(), venue: { orderId: 1 } };
const cases: Array<[string, (client: FuturesClient) => Promise<unknown>, unknown]> = [
  ['orders.create (journaled)', (c) => c.orders.create(market), created],
  ['orders.cancel', (c) => c.orders.cancel('ord-1'), { ok: true, order: order({ status: 'CANCELED' }), venue: {} }],
  ['orders.get', (c) => c.orders.get('ord-1'), { ok: true, order: order() }],
  ['account.exposure', (c) => c.account.exposure(), { ok: true, grossExposure: '0.01', positions: [position()] }],
];

describe(`SDK frames from a resource method to fetch (at most ${MAX_SDK_FRAMES})`, () => {
  for (const pacing of ['rateLimit: false', 'default pacing'] as const) {
    it.each(cases)(`%s (${pacing})`, async (_name, call, answer) => {
      const { sdk, stack } = await framesOf(call, answer, pacing === 'rateLimit: false' ? { rateLimit: false } : {});
      expect(stack, 'the chain reaches back to the caller').toContain(THIS_FILE);
      expect(sdk.at(-1), sdk.join('\n')).toMatch(/Resource\.\w+ \(src\/resources\//);
      expect(sdk.length, sdk.join('\n')).toBeLessThanOrEqual(MAX_SDK_FRAMES);
    });
  }

  it('client.orders.create: every frame between the resource method and fetch, named', async () => {
    const { sdk } = await framesOf((c) => c.orders.create(market), created, { rateLimit: false });
    console.log(`client.orders.create → fetch: ${sdk.length} SDK frames\n  ${sdk.join('\n  ')}`);
    // (`Module.create` under vitest's module runner, `create` in plain Node.)
    expect(sdk.map((frame) => frame.replace(/ \(.*$/, '').replace(/^Module\./, ''))).toEqual([
      'Object.fetch', // the base client's wrapper around the fetch option
      'Transport.attempt',
      'Transport.run',
      'Transport.call',
      'journalCall',
      'callEndpoint',
      'create', // src/endpoints/orders/create.ts
      'OrdersResource.create',
    ]);
  });

  it('the standalone function on a base client: one frame fewer', async () => {
    let stack = '';
    const client = createBaseClient({ ...clientOptions(created, (s) => (stack = s)), rateLimit: false });
    await create(client, market);
    const sdk = stack.split('\n').filter((line) => line.includes(SRC));
    expect(stack).toContain(THIS_FILE);
    expect(sdk.length, sdk.join('\n')).toBe(MAX_SDK_FRAMES - 1);
  });
});
