/**
 * Adversarial review, DOCS ARE TRUE: statements of docs/configuration.md and docs/errors.md that no other test
 * pinned, checked on the wire through the simulated exchange with a fake clock shared by client and exchange.
 * (The docs' code snippets themselves run in test/docs/snippets.test.ts.)
 */
import { FuturesClient, RateLimitError } from 'futures-sdk';
import { describe, expect, it } from 'vitest';
import { limitBuy, simulatorRig as rig } from '../helpers/simulator-rig.ts';

describe('docs/configuration.md', () => {
  it('baseUrl: trailing slashes are stripped (every one, not just the last)', async () => {
    const { ex, client } = rig();
    const slashed = new FuturesClient({ baseUrl: `${ex.baseUrl}///`, fetch: ex.fetch });
    await expect(slashed.market.symbols()).resolves.toMatchObject({ ok: true });
    await client.market.health();
    expect(ex.requests.map((r) => r.path)).toEqual(['/v2/symbols', '/health']);
  });

  it('retries: an order batch that hit a dropped connection is retried and places each item once', async () => {
    const { ex, client, accountId } = rig();
    // Processed by the exchange, then the connection drops: the client cannot know the batch was placed.
    ex.faults.add({ method: 'POST', path: '/v2/orders/batch', reset: true, times: 1 });
    const { results } = await client.orders.createBatch([limitBuy, { ...limitBuy, price: '49000' }]);
    expect(results.map((r) => r.success)).toEqual([true, true]);
    const batches = ex.requests.filter((r) => r.path === '/v2/orders/batch');
    expect(batches).toHaveLength(2);
    // Same clientOrderIds on the retry, so the server answered with the orders it already had.
    expect(batches[1]?.body).toEqual(batches[0]?.body);
    expect(ex.account(accountId).orders).toHaveLength(2);
  });

  it('retry option: omitted fields keep their defaults (limit 4 when only baseDelayMs is given)', async () => {
    const { ex, client } = rig({ retry: { baseDelayMs: 10 } });
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 503, times: 10 });
    await expect(client.account.positions()).rejects.toMatchObject({ status: 503 });
    expect(ex.requests.filter((r) => r.path === '/v2/positions')).toHaveLength(5);
  });

  it('retries: a first signed call from a clock 30 s ahead succeeds on its second attempt', async () => {
    const { ex, clock, client } = rig();
    const skewed = new FuturesClient({
      baseUrl: ex.baseUrl,
      ...ex.createApiKey(ex.createAccount().accountId),
      fetch: ex.fetch,
      clock: { ...clock, now: () => clock.now() + 30_000, sleep: clock.sleep.bind(clock), random: () => 0.5 },
    });
    await expect(skewed.account.positions()).resolves.toMatchObject({ ok: true });
    expect(ex.requests.filter((r) => r.path === '/v2/positions').map((r) => r.status)).toEqual([401, 200]);
    await client.account.positions();
  });
});

describe('docs/errors.md', () => {
  it('a Retry-After over retry.maxRetryAfterMs is not waited for: the RateLimitError comes back at once', async () => {
    const { ex, clock, client } = rig({ retry: { maxRetryAfterMs: 5_000 } });
    ex.faults.add({ method: 'GET', path: '/v2/positions', status: 429, headers: { 'Retry-After': '30' } });
    const started = clock.now();
    const error = await client.account.positions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 30_000 });
    expect(clock.now() - started).toBeLessThan(1_000);
    expect(ex.requests.filter((r) => r.path === '/v2/positions')).toHaveLength(1);
  });
});
