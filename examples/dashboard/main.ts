/**
 * A trading dashboard in the browser: live tickers, a candlestick chart, positions with unrealized PnL, working
 * orders with cancel buttons, and account events — with the API secret kept out of the page.
 *
 * The page never sees the secret. Signed calls use the client's `signer` option, which sends the payload to a
 * small signing server (examples/dashboard/server.ts) that holds it; the page talks to the API directly (here
 * the simulated exchange, on another origin, with CORS). Run it with `npm run dashboard`.
 */
import {
  type AccountStream,
  decimal,
  FuturesClient,
  isFuturesError,
  type Order,
  type Position,
  parseKline,
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

// ── Tickers ───────────────────────────────────────────────────────────────────────────────────────────────

async function refreshTickers(): Promise<void> {
  const { tickers } = await client.market.ticker24hr();
  const wanted = tickers.filter((t) => config.symbols.includes(t.symbol));
  const body = $<HTMLTableElement>('#tickers').tBodies[0]!;
  body.replaceChildren();
  for (const ticker of wanted) {
    const row = body.insertRow();
    row.dataset['symbol'] = ticker.symbol;
    cell(row, ticker.symbol);
    cell(row, ticker.lastPrice, 'price');
    const change = ticker.priceChangePercent;
    cell(row, `${change}%`, change.startsWith('-') ? 'down' : 'up');
  }
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

async function refreshChart(): Promise<void> {
  const { data } = await client.market.klines({ symbol, interval: '1m', limit: 120 });
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
}

// ── Orders ────────────────────────────────────────────────────────────────────────────────────────────────

async function refreshOrders(): Promise<void> {
  const { orders } = await client.orders.list({ status: 'NEW', limit: 50 });
  renderOrders(orders);
}

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
        await refreshOrders();
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
    await refreshOrders();
  } catch (err) {
    // RequestValidationError names the field (e.g. "price: must be a plain decimal string") before any network.
    message.textContent = isFuturesError(err) ? err.shortMessage : String(err);
  }
});

// ── Positions ─────────────────────────────────────────────────────────────────────────────────────────────

async function refreshPositions(): Promise<void> {
  const { positions } = await client.account.positions();
  renderPositions(positions);
}

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

// ── Account events ────────────────────────────────────────────────────────────────────────────────────────

function logEvent(text: string): void {
  const list = $('#events');
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  list.prepend(item);
  while (list.children.length > 50) list.lastElementChild?.remove();
}

function openStream(): AccountStream {
  // The account channel takes a JWT (a wallet session), never the API key; the local server hands one out.
  const stream = client.stream({
    url: config.wsUrl,
    token: async () => (await fetch('/jwt')).text(),
  });
  stream.on('order_new', (order) => logEvent(`order_new ${order.symbol ?? ''} ${order.side ?? ''}`));
  stream.on('order_canceled', (order) => logEvent(`order_canceled ${order.id ?? ''}`));
  stream.on('order_update', (order) => logEvent(`order_update ${order.id ?? ''} ${order.status ?? ''}`));
  stream.on('position_update', (position) => {
    logEvent(`position_update ${position.symbol} ${position.quantity}`);
    void refreshPositions().catch((err) => showError('positions', err));
  });
  stream.on('open', () => logEvent('stream open'));
  stream.on('error', (err) => logEvent(`stream error: ${err.shortMessage}`));
  return stream;
}

// ── Loop ──────────────────────────────────────────────────────────────────────────────────────────────────

async function every(ms: number, name: string, task: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      await task();
    } catch (err) {
      showError(name, err);
    }
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

await Promise.all([refreshTickers(), refreshChart(), refreshOrders(), refreshPositions()]).then(
  () => {
    status.textContent = `live · ${config.apiBaseUrl}`;
    status.className = 'muted';
    const lastPrice = document.querySelector(`#tickers tr[data-symbol="${symbol}"] .price`)?.textContent;
    const price = $<HTMLInputElement>('#order-price');
    // A default far below the market, so a demo order rests on the book instead of filling.
    if (lastPrice && price.value === '') {
      price.value = decimal.roundToStep(decimal.mul(lastPrice, '0.8'), '1', 'down');
    }
  },
  (err) => showError('load', err),
);
openStream();
void every(2_000, 'tickers', refreshTickers);
void every(5_000, 'chart', refreshChart);
void every(3_000, 'orders', refreshOrders);
void every(3_000, 'positions', refreshPositions);
