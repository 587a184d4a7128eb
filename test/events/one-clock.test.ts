// One time source: a client's clock drives its calls, its watcher's polls and its stream's timers, and the
// simulated exchange can share it, with no extra wiring.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FuturesClient } from '../../src/client.ts';
import { createExchange, ManualClock } from '../../src/testing/index.ts';
import { startWsServer } from './helpers.ts';

function sharedClockRig() {
  const clock = new ManualClock({ start: Date.parse('2026-01-01T00:00:00Z') });
  const ex = createExchange({ seed: 3, volatility: 0, clock });
  const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId);
  const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch, clock });
  const polls = () => ex.requests.filter((r) => r.path === '/v2/positions').length;
  return { clock, ex, client, polls };
}

describe('one clock for the client, its watcher and the exchange', () => {
  it('moves both sides: a day later on the shared clock, signed calls still pass the 5 s window', async () => {
    const { clock, ex, client } = sharedClockRig();
    await client.account.balance();
    clock.advance(86_400_000);
    expect(ex.now()).toBe(Date.parse('2026-01-02T00:00:00Z'));
    await expect(client.account.balance()).resolves.toMatchObject({ ok: true });
  });

  it('client.watch() polls on the client clock: nothing happens until it is advanced, then one poll per interval', async () => {
    const { clock, client, polls } = sharedClockRig();
    const watcher = client.watch({ intervalMs: 5_000 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 50)); // real time passes: not even the first poll
      expect(polls()).toBe(0);
      clock.advance(0); // the first poll is due at once on the client clock
      await waitFor(() => polls() === 1 && clock.pending === 1);
      expect(clock.scheduled.at(-1)).toBe(5_000);
      for (let expected = 2; expected <= 4; expected++) {
        clock.advance(5_000);
        await waitFor(() => polls() === expected && clock.pending === 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(polls()).toBe(4);
    } finally {
      watcher.stop();
    }
  });

  it('client.stream() arms its reconnect backoff on the client clock', async () => {
    const rig = await startWsServer();
    const clock = new ManualClock();
    const client = new FuturesClient({ baseUrl: 'http://127.0.0.1:1', clock, WebSocket });
    const stream = client.stream({ url: rig.url, token: 'token-1', reconnect: { baseDelayMs: 1_000 } });
    try {
      const first = await rig.connection(1);
      const before = clock.scheduled.length;
      first.socket.close(1011, 'going away');
      await waitFor(() => stream.state === 'reconnecting');
      // Equal jitter with random() = 0.5: 75 % of the first 1000 ms step.
      expect(clock.scheduled.slice(before)).toContain(750);
      const connections = rig.connections.length;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rig.connections.length).toBe(connections); // real time alone does not reconnect
      clock.advance(750);
      await rig.connection(2);
    } finally {
      stream.close();
      await rig.close();
    }
  });
});

describe('ManualClock', () => {
  it("'jump' sleeps wake each sleeper at its own deadline and fire the timers they pass, in order", async () => {
    const clock = new ManualClock({ start: 0 });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 300);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 100);
    await Promise.all([clock.sleep(500), clock.sleep(500)]);
    expect(clock.now()).toBe(500);
    expect(fired).toEqual(['a@100', 'b@300']);
    expect(clock.sleeps).toEqual([500, 500]);
  });

  it("'wait' sleeps end only when advance() reaches them; an abort rejects with the signal's reason", async () => {
    const clock = new ManualClock({ start: 0, sleep: 'wait' });
    let done = false;
    const sleeping = clock.sleep(1_000).then(() => {
      done = true;
    });
    clock.advance(999);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await sleeping;
    expect(done).toBe(true);
    const controller = new AbortController();
    const aborted = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(clock.pending).toBe(0);
  });
});

async function waitFor(condition: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
