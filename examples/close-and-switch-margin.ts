/**
 * Switching margin mode with an open position.
 *
 * `futures.setMarginType` refuses while a position is open (409 `ConflictError`, `isOpenPositionGuard`).
 * `futures.closeAndSwitchMargin` cancels the symbol's orders, closes its positions, then switches the mode — in
 * three legs with NO rollback. When it fails it rejects with `MarginSwitchError` (502), and `stage` says what
 * already happened:
 *   - `switch`: orders cancelled and positions closed, but the mode is unchanged. Nothing is open any more, so
 *     a plain `setMarginType` finishes the job.
 *   - `close`: orders cancelled, closing failed part-way. Check the positions before doing anything else.
 * The SDK never retries this call once it may have started, because repeating it could close a position you
 * opened in between.
 *
 * Run: `npm run build && npx node examples/close-and-switch-margin.ts`
 */
import { ConflictError, type FuturesClient, MarginSwitchError, type MarginType } from 'futures-sdk';
import { connect, failed, shiftPrice, waitForPosition } from './_setup.ts';

/** A LONG position plus a resting bid 5 % below it, so the switch has an order to cancel and a position to close. */
async function openLong(client: FuturesClient, symbol: string): Promise<void> {
  await client.orders.create({ symbol, side: 'BUY', type: 'MARKET', quantity: '0.01' });
  const position = await waitForPosition(client, symbol);
  const price = shiftPrice(position.avgEntryPrice, -5);
  const { order } = await client.orders.create({ symbol, side: 'BUY', type: 'LIMIT', quantity: '0.01', price });
  console.log(
    `Opened ${symbol} ${position.quantity} @ ${position.avgEntryPrice} (${position.marginMode}), ` +
      `resting bid ${order.id} @ ${price}`,
  );
}

/** What a careful caller does around closeAndSwitchMargin: report what is gone, and finish or stop safely. */
async function closeAndSwitch(client: FuturesClient, symbol: string, target: MarginType): Promise<void> {
  try {
    const { data } = await client.futures.closeAndSwitchMargin({ symbol, targetMarginType: target });
    console.log(
      `Switched to ${data.marginType}: cancelled ${data.canceledOrders.length} order(s), ` +
        `closed ${data.closedPositions.map((p) => `${p.id} (${p.quantity})`).join(', ') || 'no position'}`,
    );
  } catch (error) {
    if (!(error instanceof MarginSwitchError)) throw error;
    console.log(`MarginSwitchError at stage "${error.stage}": ${error.error} (errorId ${error.errorId})`);
    if (error.stage === 'switch') {
      const closed = error.closedPositions.map((p) => `${p.id} (${p.quantity})`).join(', ');
      console.log(`  already done: cancelled [${error.canceledOrders.join(', ')}], closed [${closed}]`);
      // Positions are closed, so the guard no longer applies: a plain switch completes the operation.
      const { data } = await client.futures.setMarginType({ symbol, marginType: target });
      console.log(`  recovered: setMarginType -> ${data.marginType}`);
    } else {
      // Leg 1 (cancel orders) ran but this error does not list what it cancelled, and closing failed part-way:
      // look at the account before acting again.
      const [{ positions }, { orders }] = await Promise.all([
        client.account.positions(),
        client.orders.list({ symbol, status: 'NEW' }),
      ]);
      const open = positions.filter((p) => p.symbol === symbol).map((p) => p.quantity);
      console.log(`  venue error code ${String(error.venueErrorCode ?? 'n/a')}`);
      console.log(`  still open on ${symbol}: positions [${open.join(', ')}], working orders: ${orders.length}`);
      console.log('  -> margin mode unchanged; decide whether to close the rest by hand before retrying');
    }
  }
}

async function main(): Promise<void> {
  const { client, ex, symbol } = await connect();

  await openLong(client, symbol);
  try {
    await client.futures.setMarginType({ symbol, marginType: 'ISOLATED' });
    console.log('Margin type changed (no guard on this account)');
  } catch (error) {
    if (!(error instanceof ConflictError && error.isOpenPositionGuard)) throw error;
    console.log(`setMarginType refused (${error.status} ${error.code}): ${error.error}`);
  }

  console.log('\nClose and switch to ISOLATED:');
  await closeAndSwitch(client, symbol, 'ISOLATED');

  // The failure paths, forced with the simulator's fault hook (a real API fails this way only on venue errors).
  if (ex) {
    console.log('\nSimulated failure of leg 3 (the switch itself):');
    await openLong(client, symbol);
    ex.faults.failMarginSwitch('switch');
    await closeAndSwitch(client, symbol, 'CROSSED');

    console.log('\nSimulated failure of leg 2 (closing the position):');
    await openLong(client, symbol);
    ex.faults.failMarginSwitch('close');
    await closeAndSwitch(client, symbol, 'ISOLATED');
    // Tidy up: close what the failed call left open.
    const { positions } = await client.account.positions();
    for (const p of positions) await client.orders.closePosition({ positionId: p.id });
    console.log(`Tidied up: closed ${positions.length} position(s)`);
  }
}

main().catch(failed);
