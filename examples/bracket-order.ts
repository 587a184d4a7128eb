/**
 * Bracket order: a MARKET entry, a TAKE_PROFIT that closes it, and why a STOP-loss cannot sit beside it.
 *
 * The API lets only ONE closing order reserve a position: a second one (TP + SL) fails with 400 "Close quantity
 * exceeds available position quantity" (`BadRequestError`, `isClosingOrderReserved`). This example shows that
 * error, then protects the downside on the client side instead: watch the mark, and when it reaches the stop,
 * cancel the TP and close the position.
 *
 * Run: `npm run build && npx node examples/bracket-order.ts`
 */
import { BadRequestError, decimal } from 'futures-sdk';
import { connect, failed, shiftPrice, waitForPosition } from './_setup.ts';

const POLL_MS = 2_000;
const MAX_WATCH_MS = 60_000;

async function main(): Promise<void> {
  const { client, ex, symbol, tickSize } = await connect();

  // 1. Entry. The response's status is the one the order had when accepted; the position shows the fill.
  const entry = await client.orders.create({ symbol, side: 'BUY', type: 'MARKET', quantity: '0.01' });
  console.log(`Entry ${entry.order.id}: BUY ${entry.order.quantity} ${symbol} at market`);
  const position = await waitForPosition(client, symbol);
  if (decimal.cmp(position.quantity, '0') <= 0) throw new Error(`Expected a LONG position on ${symbol}`);
  console.log(`Position ${position.id}: ${position.quantity} @ ${position.avgEntryPrice}`);

  // 2. Take profit 2 % above the entry, closing the whole position (reduceOnly: it can never open a short).
  const takeProfitAt = shiftPrice(position.avgEntryPrice, 2, tickSize);
  const stopAt = shiftPrice(position.avgEntryPrice, -1, tickSize);
  const tp = await client.orders.create({
    symbol,
    side: 'SELL',
    type: 'TAKE_PROFIT_MARKET',
    quantity: position.quantity,
    stopPrice: takeProfitAt,
    reduceOnly: true,
  });
  console.log(`Take profit ${tp.order.id}: SELL ${tp.order.quantity} when the mark reaches ${takeProfitAt}`);

  // 3. The stop-loss on the same position is refused: the TP already reserves the full quantity.
  try {
    await client.orders.create({
      symbol,
      side: 'SELL',
      type: 'STOP_MARKET',
      quantity: position.quantity,
      stopPrice: stopAt,
      reduceOnly: true,
    });
    console.log('Unexpected: the API accepted a second closing order');
  } catch (error) {
    if (!(error instanceof BadRequestError && error.isClosingOrderReserved)) throw error;
    console.log(`Stop-loss refused (${error.status}): "${error.error}" (errorId ${error.errorId})`);
    console.log('  -> only one closing order per position; the stop is watched on the client side instead.');
  }

  // 4. Client-side stop: poll the mark; at the stop, cancel the TP FIRST (so it cannot fire on a closed
  //    position), then close with a reduce-only MARKET order. The alternative with no watcher is to cancel the
  //    TP and place the STOP_MARKET instead: one protection at a time.
  console.log(
    `Watching the mark for the stop at ${stopAt} (every ${POLL_MS / 1000} s, at most ${MAX_WATCH_MS / 1000} s)`,
  );
  const deadline = Date.now() + MAX_WATCH_MS;
  for (;;) {
    const current = await client.account.positions();
    const open = current.positions.find((p) => p.id === position.id && p.status === 'OPEN');
    if (!open) {
      console.log('Position closed on its own (the TP fired); nothing left to do.');
      return;
    }
    // PnL of a long = (mark − entry) × quantity, exact on the decimal strings; the server's figure should agree.
    const pnl = decimal.mul(decimal.sub(open.markPrice, open.avgEntryPrice), open.quantity);
    console.log(`  mark ${open.markPrice}, unrealized PnL ${pnl} (server: ${open.unrealizedPnl})`);
    if (decimal.cmp(open.markPrice, stopAt) <= 0) break;
    if (Date.now() > deadline) {
      console.log('Stop not reached in time; the position stays open, protected by its TP.');
      return;
    }
    // On the simulator, make the market fall through the stop instead of waiting for it.
    if (ex) ex.setMarkPrice(symbol, shiftPrice(stopAt, -0.5, tickSize));
    else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  const canceled = await client.orders.cancel(tp.order.id);
  console.log(`Stop reached: take profit ${canceled.order.id} ${canceled.order.status}`);
  const { closed } = await client.orders.closePosition({ positionId: position.id });
  if (closed.reconciled) console.log(`Position was already closed (remaining ${closed.remainingPosition})`);
  else console.log(`Closed: ${closed.side} ${closed.quantity} ${closed.symbol}, remaining ${closed.remainingPosition}`);

  const { positions: after } = await client.account.positions({ status: 'CLOSED' });
  const done = after.find((p) => p.id === position.id);
  if (done) console.log(`Realized PnL ${done.realizedPnl} USDT (close reason: ${done.closeReason ?? 'n/a'})`);
}

main().catch(failed);
