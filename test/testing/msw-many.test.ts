// 50 simulated exchanges with distinct base URLs in one MSW server: no MaxListenersExceededWarning, and each
// exchange answers its own baseUrl over HTTP and over the account WebSocket. Its own file: Node prints the
// warning once per process (per target), so an earlier test must not have used it up.
import { createExchange } from 'futures-sdk/testing';
import { handlers } from 'futures-sdk/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
process.on('warning', onWarning);

const exchanges = Array.from({ length: 50 }, (_, i) =>
  createExchange({ seed: i, volatility: 0, baseUrl: `https://ex${i}.example.test` }),
);
const server = setupServer(...exchanges.flatMap((ex, i) => (i % 2 === 0 ? handlers(ex) : ex.handlers())));
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => {
  server.close();
  process.off('warning', onWarning);
});

/** Opens the account channel of `ex` for a new account holding `usdt`, and resolves its first message. */
async function firstMessage(ex: (typeof exchanges)[number], usdt: string) {
  const { accountId } = ex.createAccount({ balances: { USDT: usdt } });
  const socket = new WebSocket(`${ex.baseUrl.replace('https', 'wss')}/v2/ws/account?token=${ex.issueJwt(accountId)}`);
  const text = await new Promise<string>((resolve, reject) => {
    socket.addEventListener('message', (event) => resolve(String(event.data)), { once: true });
    socket.addEventListener('close', () => reject(new Error(`closed before a message: ${ex.baseUrl}`)));
  });
  return { socket, first: JSON.parse(text) as { event: string; data: { balances: unknown } } };
}

describe('50 exchanges with distinct base URLs in one setupServer', () => {
  it('print no MaxListenersExceededWarning; each answers its own baseUrl over HTTP and WebSocket', async () => {
    for (const [i, ex] of exchanges.entries()) {
      expect((await fetch(`${ex.baseUrl}/health`)).status).toBe(200);
      const { socket, first } = await firstMessage(ex, `${i + 1}`);
      expect(first.event).toBe('full_snapshot');
      // The snapshot is of the account just created on THIS exchange (its balance is unique to it).
      expect(JSON.stringify(first.data.balances)).toContain(`"${i + 1}`);
      socket.close(1000);
      expect(ex.requests.map((r) => r.path)).toEqual(['/health']);
    }
    // Let any deferred warning surface before checking.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(warnings).toEqual([]);
  });

  it('a URL of no exchange is not claimed by the shared WebSocket handler: MSW reports it unhandled', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const socket = new WebSocket('wss://nobody.example.test/v2/ws/account?token=x');
      const outcome = await new Promise<string>((resolve) => {
        socket.addEventListener('message', () => resolve('message'));
        socket.addEventListener('error', () => resolve('error'));
        socket.addEventListener('close', () => resolve('close'));
      });
      expect(outcome).not.toBe('message');
      expect(printed.mock.calls.flat().join(' ')).toContain('without a matching event handler');
    } finally {
      printed.mockRestore();
    }
  });
});
