/**
 * Maker-fill bot: rests two LIMIT orders away from the market, watches the account over REST and prints every
 * maker fill (fills of resting orders have no myTrades row and no order_update; the watcher finds them as
 * unexplained position changes). After every poll it writes the watcher's checkpoint to a file, and on start it
 * resumes from that file: fills that happened while the bot was down are reported by its first poll. Exits by
 * itself.
 *
 * Against a real server: FUTURES_BASE_URL, FUTURES_API_KEY, FUTURES_API_SECRET (optional FUTURES_SYMBOL,
 * FUTURES_QUANTITY, FUTURES_TICK_SIZE, FUTURES_WAIT_MS, FUTURES_CHECKPOINT_FILE). Without them it runs against an
 * in-process simulated exchange, makes the venue fill its orders, and restarts itself once in between.
 *
 * Run: `npm run build && npx node examples/maker-fill-bot.ts`
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AccountWatcher, decimal, FuturesClient, type MakerFill, type WatcherCheckpoint } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';

const symbol = process.env['FUTURES_SYMBOL'] ?? 'BTCUSDT';
const quantity = process.env['FUTURES_QUANTITY'] ?? '0.002';
const waitMs = Number(process.env['FUTURES_WAIT_MS'] ?? 60_000);

const live = Boolean(
  process.env['FUTURES_BASE_URL'] && process.env['FUTURES_API_KEY'] && process.env['FUTURES_API_SECRET'],
);
const exchange = live ? undefined : createExchange({ seed: 1, volatility: 0 });
// One client per process; `connect()` again stands for the bot after a restart.
let connect: () => FuturesClient;
if (exchange) {
  const { accountId } = exchange.createAccount({ balances: { USDT: '100000' } });
  const { apiKey, apiSecret } = exchange.createApiKey(accountId, { permissions: ['TRADE'] });
  exchange.setMarkPrice(symbol, '65000');
  connect = () => new FuturesClient({ baseUrl: exchange.baseUrl, apiKey, apiSecret, fetch: exchange.fetch });
  console.log('No FUTURES_* variables: running against the in-process simulated exchange.');
} else {
  connect = () =>
    new FuturesClient({
      baseUrl: process.env['FUTURES_BASE_URL']!,
      apiKey: process.env['FUTURES_API_KEY'],
      apiSecret: process.env['FUTURES_API_SECRET'],
    });
}
let client = connect();
// A simulated exchange is new on every run, so its checkpoint goes to a fresh directory.
const checkpointFile =
  process.env['FUTURES_CHECKPOINT_FILE'] ??
  join(exchange ? mkdtempSync(join(tmpdir(), 'maker-fill-bot-')) : '.', 'maker-fill-bot.checkpoint.json');

const { tickers } = await client.market.ticker24hr({ symbol });
const last = tickers[0]?.lastPrice ?? '65000';
// 5 % away from the last price, so that both orders rest (maker) instead of filling at once (taker), rounded
// exactly to the tick: away from the market on each side (the bid down, the ask up).
const tickSize = exchange ? exchange.market.symbolInfo(symbol).tickSize : (process.env['FUTURES_TICK_SIZE'] ?? '0.1');
const buyPrice = decimal.roundToStep(decimal.mul(last, '0.95'), tickSize, 'down');
const sellPrice = decimal.roundToStep(decimal.mul(last, '1.05'), tickSize, 'up');

const fills: MakerFill[] = [];
/** Starts watching, from the checkpoint file when there is one; writes the checkpoint after every poll. */
function startWatching(): AccountWatcher {
  const resume = existsSync(checkpointFile)
    ? (JSON.parse(readFileSync(checkpointFile, 'utf8')) as WatcherCheckpoint)
    : undefined;
  if (resume) console.log(`resuming from ${checkpointFile}`);
  const watcher = client.watch({ symbols: [symbol], intervalMs: exchange ? 250 : 5_000, resume });
  watcher.on('maker_fill', (fill) => {
    fills.push(fill);
    console.log(
      `maker fill: ${fill.symbol} ${fill.positionSide} ${fill.quantity} (position ${fill.previousQuantity} → ${fill.newQuantity})`,
    );
  });
  watcher.on('fill', (trade) => console.log(`taker fill: ${trade.symbol} ${trade.side} ${trade.qty} @ ${trade.price}`));
  watcher.on('error', (err) => console.warn(`watcher: ${err.shortMessage}`));
  watcher.on('poll', () => {
    // Written whole, then renamed: a crash mid-write never leaves half a checkpoint.
    writeFileSync(`${checkpointFile}.tmp`, JSON.stringify(watcher.checkpoint()));
    renameSync(`${checkpointFile}.tmp`, checkpointFile);
  });
  return watcher;
}
let watcher = startWatching();
await new Promise<void>((resolve) => watcher.once('poll', () => resolve()));

const buy = await client.orders.create({ symbol, side: 'BUY', type: 'LIMIT', quantity, price: buyPrice });
const sell = await client.orders.create({ symbol, side: 'SELL', type: 'LIMIT', quantity, price: sellPrice });
console.log(
  `resting: BUY ${quantity} @ ${buyPrice} (${buy.order.id}), SELL ${quantity} @ ${sellPrice} (${sell.order.id})`,
);

const waitFor = async (count: number, ms: number) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && (count === 0 || fills.length < count)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
let expected = 0;
if (exchange) {
  // The simulated venue fills the BUY; positions catch up at the sync tick.
  exchange.fillOrder(buy.order.id);
  exchange.sync();
  await waitFor(++expected, 10_000);
  // The bot goes down; the SELL fills meanwhile; a new process resumes from the file and reports it.
  watcher.stop();
  console.log('restarting…');
  exchange.fillOrder(sell.order.id);
  exchange.sync();
  client = connect();
  watcher = startWatching();
  expected++;
}

await waitFor(expected, exchange ? 10_000 : waitMs);
watcher.stop();

for (const order of [buy.order, sell.order]) {
  try {
    await client.orders.cancel(order.id);
  } catch {
    // Already filled: nothing to cancel.
  }
}
console.log(`${fills.length} maker fill(s) detected. Done.`);
if (exchange && fills.length !== expected) process.exit(1);
