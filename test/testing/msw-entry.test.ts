import { createExchange } from 'futures-sdk/testing';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';

// This file must not import futures-sdk/testing/msw statically: the first test checks the core without it.

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
process.on('warning', onWarning);
afterAll(() => {
  process.off('warning', onWarning);
});

describe('futures-sdk/testing without the MSW entry', () => {
  it('ex.handlers() says in one sentence what to import', () => {
    const ex = createExchange({ seed: 1 });
    expect(() => ex.handlers()).toThrow(
      "ex.handlers() needs the MSW adapter: import { handlers } from 'futures-sdk/testing/msw' and call handlers(ex)",
    );
  });
});

describe('futures-sdk/testing/msw', () => {
  it('50 exchanges with handlers in one file: each serves its own accounts, and nothing is printed', async () => {
    const { handlers } = await import('futures-sdk/testing/msw');
    const exchanges = Array.from({ length: 50 }, (_, i) => createExchange({ seed: i, volatility: 0 }));
    const server = setupServer();
    server.listen();
    try {
      for (const [i, ex] of exchanges.entries()) {
        // Half through the named function, half through the shorthand the entry enables.
        server.resetHandlers(...(i % 2 === 0 ? handlers(ex) : ex.handlers()));
        const { accountId } = ex.createAccount({ balances: { USDT: '1' } });
        const token = ex.issueJwt(accountId);
        const health = await fetch(`${ex.baseUrl}/health`);
        expect(health.status).toBe(200);
        const socket = new WebSocket(`${ex.baseUrl.replace('https', 'wss')}/v2/ws/account?token=${token}`);
        const first = await new Promise<string>((resolve) =>
          socket.addEventListener('message', (event) => resolve(String(event.data)), { once: true }),
        );
        expect(JSON.parse(first)).toMatchObject({ event: 'full_snapshot' });
        socket.close(1000);
        // The request reached this exchange, not an earlier one with the same URL.
        expect(ex.requests.map((r) => r.path)).toEqual(['/health']);
      }
    } finally {
      server.close();
    }
    // Let any deferred warning surface before checking.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(warnings).toEqual([]);
  });
});
