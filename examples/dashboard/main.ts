/**
 * A trading dashboard in the browser: live tickers, a candlestick chart, positions with unrealized PnL, working
 * orders with cancel buttons, and account events — with the API secret kept out of the page, and no polling loop
 * of its own: market data comes from a market feed on the account stream's firehose (`client.marketFeed`), the
 * account from the watcher's snapshot after each of its polls (`client.watch`, `watcher.snapshot()`).
 *
 * The page never sees the secret. Signed calls use the client's `signer` option, which sends the payload to a
 * small signing server (examples/dashboard/server.ts) that holds it; the page talks to the API directly (here
 * the simulated exchange, on another origin, with CORS). Run it with `npm run dashboard`.
 */
import {
  type AccountSnapshot,
  decimal,
  FuturesClient,
  isFuturesError,
  type Order,
  type Position,
  parseKline,
  type Ticker,
} from 'futures-sdk';
import { CandlestickSeries, createChart, type UTCTimestamp } from 'lightweight-charts';

/** What the local server tells the page: where the API is, and the public half of the credentials. */
interface DashboardConfig {
  apiBaseUrl: string;
  wsUrl: string;
  apiKey: string;
  symbols: string[];
}

const $ = <T extends HTMLElement>(selector: string): T => {
  const element = document.querySelector<T>(selector);
  if (!element) throw new Error(`missing ${selector}`);
  return element;
};

const config = (await (await fetch('/config')).json()) as DashboardConfig;

const client = new FuturesClient({
  baseUrl: config.apiBaseUrl,
  apiKey: config.apiKey,
  // The secret stays on the signing server: the page sends it the payload and appends the hex HMAC it returns.
  signer: async (payload) => {
    const response = await fetch('/sign', { method: 'POST', body: payload });
    if (!response.ok) throw new Error(`signing server answered ${response.status}`);
    return response.text();
  },
});

const symbol = config.symbols[0] ?? 'BTCUSDT';
const status = $('#status');
const showError = (where: string, err: unknown): void => {
  const message = isFuturesError(err) ? err.shortMessage : String(err);
  status.textContent = `${where}: ${message}`;
  status.className = 'down';
};

function cell(row: HTMLTableRowElement, text: string, className?: string): HTMLTableCellElement {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

// ── Sources: the account stream (JWT), a market feed on its firehose, the account watcher (API key) ─────────

function logEvent(text: string): void {
  const list = $('#events');
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  list.prepend(item);
  while (list.children.length > 50) list.lastElementChild?.remove();
}

// The account channel takes a JWT (a wallet session), never the API key; the local server hands one out.
const stream = client.stream({ url: config.wsUrl, token: async () => (await fetch('/jwt')).text() });
stream.on('order_new', (order) => logEvent(`order_new ${order.symbol ?? ''} ${order.side ?? ''}`));
stream.on('order_canceled', (order) => logEvent(`order_canceled ${order.id ?? ''}`));
stream.on('order_update', (order) => logEvent(`order_update ${order.id ?? ''} ${order.status ?? ''}`));
stream.on('position_update', (position) => logEvent(`position_update ${position.symbol} ${position.quantity}`));
stream.on('open', () => logEvent('stream open'));
stream.on('error', (err) => logEvent(`stream error: ${err.shortMessage}`));

// Tickers, depth, trades and 1m candles come from the firehose the stream already receives: no REST for them but
// the chart's history, read once. Every widget on the same data shares one subscription.
const feed = client.marketFeed({ stream, klinesLimit: 120 });
feed.on('error', (err) => showError('market data', err));

// Positions and this page's working orders, as of the watcher's last poll (every 2 s, background priority).
const watcher = client.watch({ symbols: config.symbols, intervalMs: 2_000 });
watcher.on('maker_fill', (fill) => logEvent(`maker_fill ${fill.symbol} ${fill.quantity}`));
watcher.on('error', (err) => showError('account', err));
watcher.on('poll', () => {
  const snapshot = watcher.snapshot();
  if (snapshot) renderAccount(snapshot);
});

// ── Tickers ───────────────────────────────────────────────────────────────────────────────────────────────

const tickerBody = $<HTMLTableElement>('#tickers').tBodies[0]!;
for (const s of config.symbols) {
  const row = tickerBody.insertRow();
  row.dataset['symbol'] = s;
  cell(row, s);
  feed.ticker(s, (ticker: Ticker) => {
    row.replaceChildren();
    cell(row, ticker.symbol);
    cell(row, ticker.lastPrice, 'price');
    const change = ticker.priceChangePercent;
    cell(row, `${change}%`, change.startsWith('-') ? 'down' : 'up');
    if (ticker.symbol !== symbol) return;
    status.textContent = `live · ${config.apiBaseUrl}`;
    status.className = 'muted';
    // A default far below the market, so a demo order rests on the book instead of filling.
    const price = $<HTMLInputElement>('#order-price');
    if (price.value === '') price.value = decimal.roundToStep(decimal.mul(ticker.lastPrice, '0.8'), '1', 'down');
  });
}

// ── Chart ─────────────────────────────────────────────────────────────────────────────────────────────────

const chartElement = $('#chart');
$('#chart-symbol').textContent = symbol;
const chart = createChart(chartElement, {
  autoSize: true,
  layout: { background: { color: '#151c2b' }, textColor: '#9fb0c8' },
  grid: { vertLines: { color: '#1e2638' }, horzLines: { color: '#1e2638' } },
  timeScale: { timeVisible: true },
});
const candles = chart.addSeries(CandlestickSeries, {
  upColor: '#26a69a',
  downColor: '#ef5350',
  wickUpColor: '#26a69a',
  wickDownColor: '#ef5350',
  borderVisible: false,
});

feed.klines(symbol, '1m', (data) => {
  // The chart library draws numbers; the SDK's decimal strings are converted only here, for display.
  const bars = data.map(parseKline).map((k) => ({
    time: Math.floor(k.openTime / 1000) as UTCTimestamp,
    open: Number(k.open),
    high: Number(k.high),
    low: Number(k.low),
    close: Number(k.close),
  }));
  candles.setData(bars);
  chartElement.dataset['candles'] = String(bars.length);
});

// ── Orders ────────────────────────────────────────────────────────────────────────────────────────────────

function renderOrders(orders: readonly Order[]): void {
  const body = $<HTMLTableElement>('#orders').tBodies[0]!;
  body.replaceChildren();
  for (const order of orders) {
    const row = body.insertRow();
    row.dataset['orderId'] = order.id;
    cell(row, order.id.slice(0, 8));
    cell(row, order.symbol);
    cell(row, order.side, order.side === 'BUY' ? 'up' : 'down');
    cell(row, order.price ?? 'market');
    cell(row, order.quantity);
    cell(row, order.status);
    const button = document.createElement('button');
    button.className = 'cancel';
    button.textContent = 'Cancel';
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await client.orders.cancel(order.id);
        void watcher.poll(); // show it now rather than at the next poll
      } catch (err) {
        button.disabled = false;
        showError('cancel', err);
      }
    });
    row.insertCell().append(button);
  }
}

const form = $<HTMLFormElement>('#order-form');
const symbolSelect = $<HTMLSelectElement>('#order-symbol');
for (const s of config.symbols) symbolSelect.add(new Option(s, s));
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const fields = new FormData(form);
  const message = $('#order-message');
  try {
    const { order } = await client.orders.create({
      symbol: String(fields.get('symbol')),
      side: fields.get('side') === 'SELL' ? 'SELL' : 'BUY',
      type: 'LIMIT',
      price: String(fields.get('price')),
      quantity: String(fields.get('quantity')),
    });
    message.textContent = `placed ${order.id.slice(0, 8)} (${order.status})`;
    void watcher.poll();
  } catch (err) {
    // RequestValidationError names the field (e.g. "price: must be a plain decimal string") before any network.
    message.textContent = isFuturesError(err) ? err.shortMessage : String(err);
  }
});

// ── Positions ─────────────────────────────────────────────────────────────────────────────────────────────

function renderPositions(positions: readonly Position[]): void {
  const body = $<HTMLTableElement>('#positions').tBodies[0]!;
  body.replaceChildren();
  for (const position of positions) {
    const row = body.insertRow();
    cell(row, position.symbol);
    cell(row, position.quantity, position.quantity.startsWith('-') ? 'down' : 'up');
    cell(row, position.avgEntryPrice);
    cell(row, position.markPrice);
    cell(row, position.unrealizedPnl, position.unrealizedPnl.startsWith('-') ? 'down' : 'up');
  }
  // Summed exactly on the decimal strings (floats would drift): what the account gains or loses right now.
  const total = positions.reduce((sum, position) => decimal.add(sum, position.unrealizedPnl), '0');
  const totalElement = $('#pnl-total');
  totalElement.textContent = `· unrealized ${total} USDT`;
  totalElement.className = total.startsWith('-') ? 'down' : 'up';
}

function renderAccount({ positions, orders }: AccountSnapshot): void {
  renderPositions(positions);
  renderOrders(orders);
}
