/**
 * Batch orders: up to 5 orders in one call, with one result per item — and the all-or-nothing margin check.
 *
 * - A batch that fits the available margin RESOLVES even if some items are rejected: check every `results[i]`
 *   (`success: true` with `orderId`, or `success: false` with `error`). Nothing throws for a rejected item.
 * - A batch whose CUMULATIVE margin exceeds the available margin places nothing and rejects with a
 *   `BadRequestError` (400), even though each order alone would fit.
 * Each item gets its own UUID v4 `clientOrderId`, fixed for the call, so a retry cannot place an item twice.
 *
 * Run: `npm run build && npx node examples/batch-orders.ts`
 */
import { BadRequestError, type CreateOrderParameters } from 'futures-sdk';
import { connect, failed, shiftPrice } from './_setup.ts';

async function main(): Promise<void> {
  const { client, symbol, tickSize } = await connect();
  const { tickers } = await client.market.ticker24hr({ symbol });
  const last = tickers[0]?.lastPrice;
  if (!last) throw new Error(`No ticker for ${symbol}`);

  // 1. Three items: two resting bids below the market, and a reduce-only SELL with no position to reduce,
  //    which the server rejects on its own while the others are placed.
  const items: CreateOrderParameters[] = [
    { symbol, side: 'BUY', type: 'LIMIT', quantity: '0.001', price: shiftPrice(last, -3, tickSize) },
    { symbol, side: 'BUY', type: 'LIMIT', quantity: '0.002', price: shiftPrice(last, -4, tickSize) },
    { symbol, side: 'SELL', type: 'LIMIT', quantity: '0.001', price: shiftPrice(last, 3, tickSize), reduceOnly: true },
  ];
  const { results } = await client.orders.createBatch(items);
  for (const result of results) {
    const item = items[result.index];
    const label = `#${result.index} ${item?.side} ${item?.quantity} @ ${item?.price}`;
    if (result.success) console.log(`${label}: placed ${result.orderId} (${result.status})`);
    else console.log(`${label}: rejected - ${result.error}`);
  }
  const placed = results.flatMap((r) => (r.success ? [r.orderId] : []));
  console.log(`${placed.length} of ${items.length} placed`);
  for (const id of placed) await client.orders.cancel(id);
  console.log(`Cancelled the ${placed.length} resting order(s)`);

  // 2. Five bids of 1 BTC: each needs about a third of a 10,000 USDT wallet's margin at 20x, together more than
  //    all of it. The server checks the sum and places none of them.
  const big: CreateOrderParameters[] = [-3, -3.5, -4, -4.5, -5].map((percent) => ({
    symbol,
    side: 'BUY',
    type: 'LIMIT',
    quantity: '1',
    price: shiftPrice(last, percent, tickSize),
  }));
  try {
    const { results: bigResults } = await client.orders.createBatch(big);
    // A wallet large enough for all five: undo, this example only wanted to show the rejection.
    const ids = bigResults.flatMap((r) => (r.success ? [r.orderId] : []));
    for (const id of ids) await client.orders.cancel(id);
    console.log(`The wallet covered all five orders; cancelled ${ids.length} again`);
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    console.log(`Batch of 5 refused (${error.status}): ${error.error}`);
    const { total } = await client.orders.list({ symbol, status: 'NEW' });
    console.log(`Working orders on ${symbol} after the refusal: ${total} (all or nothing)`);
  }
}

main().catch(failed);
