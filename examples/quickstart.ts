/**
 * Quickstart: market data, the futures balance, then a LIMIT order placed below the market and cancelled.
 *
 * Run: `npm run build && npx node examples/quickstart.ts` (simulated exchange unless FUTURES_BASE_URL is set).
 */
import { decimal } from 'futures-sdk';
import { connect, failed, shiftPrice } from './_setup.ts';

async function main(): Promise<void> {
  const { client, symbol, tickSize, stepSize = '0.001' } = await connect();

  // Public market data: no signature needed.
  const { symbols } = await client.market.symbols();
  console.log(`${symbols.length} symbols, e.g. ${symbols.slice(0, 5).join(', ')}`);

  // ticker24hr always answers an array, even when filtered to one symbol.
  const { tickers } = await client.market.ticker24hr({ symbol });
  const ticker = tickers[0];
  if (!ticker) throw new Error(`No ticker for ${symbol}`);
  console.log(`${symbol}: last ${ticker.lastPrice}, 24h change ${ticker.priceChangePercent}%`);

  const { bids, asks } = await client.market.depth({ symbol, limit: 5 });
  console.log(`Book: best bid ${bids[0]?.[0] ?? '-'}, best ask ${asks[0]?.[0] ?? '-'}`);

  // Signed: the futures wallet of the primary sub-account.
  const { balances } = await client.account.balance();
  for (const asset of balances.assets) {
    console.log(`Balance ${asset.asset}: wallet ${asset.walletBalance}, available ${asset.availableBalance}`);
  }

  // A BUY 5 % below the last price rests on the book instead of filling, so it is safe to place and cancel.
  // Decimals are strings: never build a price from a float. The price is rounded to the tick, the quantity
  // (about 100 USDT worth, at least one lot) down to the lot step, both exactly with the `decimal` helpers.
  const price = shiftPrice(ticker.lastPrice, -5, tickSize);
  const worth100 = decimal.roundToStep(decimal.div('100', price, { scale: 12 }), stepSize, 'down');
  const quantity = decimal.isZero(worth100) ? stepSize : worth100;
  const { order } = await client.orders.create({ symbol, side: 'BUY', type: 'LIMIT', quantity, price });
  console.log(`Placed ${order.id}: ${order.side} ${order.quantity} ${order.symbol} @ ${order.price} (${order.status})`);

  const canceled = await client.orders.cancel(order.id);
  console.log(`Cancelled ${canceled.order.id}: ${canceled.order.status}`);
}

main().catch(failed);
