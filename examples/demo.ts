/**
 * `npm run demo`: a narrated trading session against the simulated exchange — the mark price, an order, its
 * fill, the position and its PnL as the market moves, the close, and the balance. Offline, a few seconds.
 *
 * The simulator is used on purpose (it lets us move the market); the same client calls work against a real API.
 */
import { decimal, FuturesClient, normalizePositionHistory } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';
import { failed } from './_setup.ts';

const SYMBOL = 'BTCUSDT';
let step = 0;
const say = (text: string) => console.log(`\n${++step}. ${text}`);
const detail = (text: string) => console.log(`   ${text}`);

async function main(): Promise<void> {
  // volatility 0: prices move only when the demo says so, so the numbers below are the same on every run.
  const ex = createExchange({ seed: 42, volatility: 0 });
  const { accountId } = ex.createAccount({ balances: { USDT: '10000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch });
  say(`A simulated exchange is up at ${ex.baseUrl}, with an account holding 10000 USDT and a TRADE key.`);

  ex.setMarkPrice(SYMBOL, '65000');
  const { tickers } = await client.market.ticker24hr({ symbol: SYMBOL });
  say(`The market: ${SYMBOL} trades at ${tickers[0]?.lastPrice} USDT.`);

  const before = (await client.account.balance()).balances.assets.find((a) => a.asset === 'USDT');
  say(`Our futures wallet: ${before?.walletBalance} USDT, of which ${before?.availableBalance} available.`);

  say('We buy 0.1 BTC at market.');
  const { order } = await client.orders.create({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.1' });
  detail(`Order ${order.id} accepted (status ${order.status}), clientOrderId ${order.clientOrderId} set by the SDK.`);

  const { data: trades } = await client.orders.myTrades({ symbol: SYMBOL });
  const fill = trades.find((t) => t.orderId === order.id);
  const { order: filled } = await client.orders.get(order.id);
  say(
    `It filled: ${fill?.qty} BTC at ${fill?.price} (${fill?.quoteQty} USDT), fee ${fill?.commission} ${fill?.commissionAsset}.`,
  );
  detail(`The order now reads ${filled.status}.`);

  const position = (await client.account.positions()).positions.find((p) => p.symbol === SYMBOL);
  if (!position) throw new Error('The fill should have opened a position');
  say(`We are LONG ${position.quantity} BTC, entry ${position.avgEntryPrice}, leverage ${position.leverage}x.`);
  detail(`Margin ${position.initialMargin} USDT, liquidation at ${position.liquidationPrice}.`);

  ex.setMarkPrice(SYMBOL, '66500');
  const moved = (await client.account.positions()).positions.find((p) => p.id === position.id);
  say(`The market rises to ${moved?.markPrice}: unrealized PnL ${moved?.unrealizedPnl} USDT.`);
  if (moved) {
    // The same figure computed exactly on the decimal strings: (mark − entry) × quantity.
    const pnl = decimal.mul(decimal.sub(moved.markPrice, moved.avgEntryPrice), moved.quantity);
    detail(`Check: (${moved.markPrice} - ${moved.avgEntryPrice}) x ${moved.quantity} = ${pnl} USDT.`);
  }

  say('We close the whole position (a reduce-only MARKET order on the opposite side).');
  const { closed } = await client.orders.closePosition({ positionId: position.id });
  if (!closed.reconciled)
    detail(`Submitted: ${closed.side} ${closed.quantity} ${closed.symbol}; remaining ${closed.remainingPosition}.`);

  const { data: history } = await client.orders.positionHistory({ symbol: SYMBOL });
  const record = history[0] && normalizePositionHistory(history[0]);
  if (record) {
    say(`Closed ${record.side} ${record.qty} BTC: entry ${record.avgEntryPrice}, exit ${record.avgClosePrice}.`);
    detail(`Realized PnL ${record.realizedPnl} USDT, fees ${record.fee} USDT.`);
  }

  const after = (await client.account.balance()).balances.assets.find((a) => a.asset === 'USDT');
  say(`Our wallet now holds ${after?.walletBalance} USDT.`);
  if (record) detail(`That is ${before?.walletBalance} + ${record.realizedPnl} realized PnL - ${record.fee} fees.`);
  console.log('\nDone. Every call above works the same against a real API: see examples/quickstart.ts.');
}

main().catch(failed);
