/**
 * Kill switch: on SIGINT (Ctrl-C) or SIGTERM (docker stop, systemd, Kubernetes), stop trading and flatten the
 * account before the process exits:
 *
 * 1. stop the strategy, and wait for the call it has in flight, so that nothing new is placed during the sweep;
 * 2. cancel every working order, conditional ones included (`cancelAll({ includeConditional: true })`: the
 *    server's cancel-all alone leaves STOP / TAKE_PROFIT orders working);
 * 3. optionally close every open position (`FUTURES_CLOSE_POSITIONS=0` keeps them);
 * 4. read the account back, and sweep again while anything is left (an order placed during the sweep, a cancel
 *    whose outcome is unknown); exit 0 only when nothing is, 1 otherwise.
 *
 * A deadline (`FUTURES_KILL_DEADLINE_MS`, default 20 s) bounds the whole shutdown: set your process manager's
 * grace period above it (`docker stop -t 30`, Kubernetes `terminationGracePeriodSeconds`), or the SIGKILL that
 * follows cuts the sweep short. A second Ctrl-C exits at once, leaving whatever is still open.
 *
 * The example first opens a position, a protective STOP_MARKET and two resting bids, and runs a small quoting
 * loop, so there is something to flatten. Against the simulator it then sends itself SIGTERM (CI runs this
 * path); against a real API (`FUTURES_BASE_URL`, …; use a test account) it waits for Ctrl-C, or for
 * `FUTURES_KILL_AFTER_MS`.
 *
 * Run: `npm run build && npx node examples/kill-switch.ts`
 */
import { CancelAllAbortedError, decimal, type FuturesClient, FuturesError, WORKING_ORDER_STATUSES } from 'futures-sdk';
import { connect, failed, shiftPrice, waitForPosition } from './_setup.ts';

const closePositions = process.env.FUTURES_CLOSE_POSITIONS !== '0';
const deadlineMs = Number(process.env.FUTURES_KILL_DEADLINE_MS || 20_000);

/** What is still open on the account. */
interface Leftovers {
  orders: number;
  positions: number;
}

async function leftovers(client: FuturesClient, signal: AbortSignal): Promise<Leftovers> {
  // GET /v2/orders filters by one status at a time; the working ones are PENDING_NEW, NEW and PARTIALLY_FILLED.
  const pages = await Promise.all(
    WORKING_ORDER_STATUSES.map((status) => client.orders.list({ status, limit: 1 }, { signal })),
  );
  const { positions } = await client.account.positions({ status: 'OPEN' }, { signal });
  return { orders: pages.reduce((sum, page) => sum + page.total, 0), positions: positions.length };
}

/**
 * Cancels everything (conditional orders included), closes the positions if asked, and reads the account back,
 * up to `passes` times. Never throws: a kill switch that gives up on the first error leaves orders working.
 */
async function flatten(client: FuturesClient, signal: AbortSignal, passes = 5): Promise<boolean> {
  for (let pass = 1; pass <= passes && !signal.aborted; pass++) {
    try {
      const result = await client.orders.cancelAll({ includeConditional: true }, { signal });
      const failures = result.results.filter((r) => r.status !== 'CANCELED');
      console.log(`pass ${pass}: canceled ${result.canceled} of ${result.total} order(s)`);
      // A FAILED entry with outcomeUnknown may in fact be canceled: the read-back below settles it.
      for (const f of failures) console.log(`  ${f.orderId}: ${f.error ?? f.status}`);
    } catch (error) {
      if (error instanceof CancelAllAbortedError) {
        console.log(`pass ${pass}: deadline hit mid-sweep, ${error.partial.notReached.length} order(s) not reached`);
      } else {
        console.log(`pass ${pass}: cancelAll failed: ${describe(error)}`);
      }
    }
    if (closePositions && !signal.aborted) {
      try {
        const { positions } = await client.account.positions({ status: 'OPEN' }, { signal });
        for (const position of positions) {
          const { closed } = await client.orders.closePosition({ positionId: position.id }, { signal });
          console.log(
            `pass ${pass}: closing ${position.symbol} ${position.quantity}: remaining ${closed.remainingPosition}`,
          );
        }
      } catch (error) {
        // closePosition is not retried after a timeout (it could close twice): the read-back decides.
        console.log(`pass ${pass}: closing positions failed: ${describe(error)}`);
      }
    }
    try {
      const left = await leftovers(client, signal);
      const positionsLeft = closePositions ? left.positions : 0;
      console.log(`pass ${pass}: ${left.orders} working order(s), ${left.positions} open position(s) left`);
      if (left.orders === 0 && positionsLeft === 0) return true;
    } catch (error) {
      console.log(`pass ${pass}: read-back failed: ${describe(error)}`);
    }
    // Positions close through a market order and show up closed after the server's sync (~5 s): give it time.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return false;
}

/** FuturesError messages carry no secret, signature or full key: safe to print. */
function describe(error: unknown): string {
  return error instanceof FuturesError ? `${error.name}: ${error.shortMessage}` : String(error);
}

/**
 * Installs the kill switch. `stopStrategy` stops your own trading and resolves once its in-flight calls have
 * settled; the switch awaits it before sweeping.
 */
function installKillSwitch(client: FuturesClient, stopStrategy: () => Promise<void>): void {
  let shuttingDown = false;
  const onSignal = async (signalName: NodeJS.Signals) => {
    if (shuttingDown) {
      console.log(`${signalName} again: exiting now; orders or positions may remain open`);
      process.exit(130);
    }
    shuttingDown = true;
    console.log(`${signalName}: stopping the strategy and flattening the account (deadline ${deadlineMs} ms)`);
    const deadline = AbortSignal.timeout(deadlineMs);
    await stopStrategy();
    const clean = await flatten(client, deadline);
    console.log(clean ? 'Flat: no working order, no open position.' : 'NOT FLAT: check the account by hand.');
    process.exit(clean ? 0 : 1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * A stand-in for your strategy: keeps one bid of its own resting 3 % under the last price, checking every 250 ms.
 * Returns its stop function, which aborts the loop and resolves once the loop has ended. An order create aborted
 * on the wire may still have been placed: the sweep and its read-back cover that.
 */
function startQuoting(client: FuturesClient, symbol: string, tickSize: string | undefined): () => Promise<void> {
  const stop = new AbortController();
  const { signal } = stop;
  let quoteId: string | undefined;
  const loop = (async () => {
    while (!signal.aborted) {
      try {
        const working = quoteId === undefined ? undefined : (await client.orders.get(quoteId, { signal })).order;
        if (working === undefined || !WORKING_ORDER_STATUSES.some((status) => status === working.status)) {
          const { tickers } = await client.market.ticker24hr({ symbol }, { signal });
          const last = tickers[0]?.lastPrice;
          if (last) {
            const price = shiftPrice(last, -3, tickSize);
            const { order } = await client.orders.create(
              { symbol, side: 'BUY', type: 'LIMIT', quantity: '0.001', price },
              { signal },
            );
            quoteId = order.id;
            console.log(`quoting: bid ${order.quantity} @ ${order.price}`);
          }
        }
      } catch (error) {
        if (!signal.aborted) console.log(`quoting: ${describe(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return async () => {
    stop.abort();
    await loop;
  };
}

async function main(): Promise<void> {
  const { client, ex, symbol, tickSize } = await connect();

  // Something to flatten: a long, a protective stop (a conditional order), two resting bids.
  await client.orders.create({ symbol, side: 'BUY', type: 'MARKET', quantity: '0.01' });
  const position = await waitForPosition(client, symbol);
  const stopPrice = shiftPrice(position.avgEntryPrice, -5, tickSize);
  await client.orders.create({
    symbol,
    side: 'SELL',
    type: 'STOP_MARKET',
    quantity: position.quantity,
    stopPrice,
    reduceOnly: true,
  });
  for (const percent of [-4, -6]) {
    const price = shiftPrice(position.avgEntryPrice, percent, tickSize);
    await client.orders.create({ symbol, side: 'BUY', type: 'LIMIT', quantity: '0.001', price });
  }
  const notional = decimal.mul(position.quantity, position.avgEntryPrice);
  console.log(`Long ${position.quantity} ${symbol} (${notional} USDT), stop at ${stopPrice}, two resting bids`);

  installKillSwitch(client, startQuoting(client, symbol, tickSize));

  const after = Number(process.env.FUTURES_KILL_AFTER_MS || (ex ? 1_000 : 0));
  if (after > 0) {
    console.log(`Sending myself SIGTERM in ${after} ms`);
    setTimeout(() => process.kill(process.pid, 'SIGTERM'), after);
  } else {
    console.log('Trading. Press Ctrl-C to flatten the account and exit.');
  }
}

main().catch(failed);
