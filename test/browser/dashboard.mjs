// Dashboard end-to-end test: builds examples/dashboard with Vite, starts its server (simulated exchange with CORS
// + signing server) and drives the page in headless Debian Chromium as a user would: a price shows, the chart
// has candles, an order placed from the page appears in the working orders and is cancelled from there; market
// data comes from the market feed on the account stream (no REST polling for it).
//   node test/browser/dashboard.mjs [--screenshot=path.png]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './launch.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const screenshot = process.argv.find((a) => a.startsWith('--screenshot='))?.slice('--screenshot='.length);

const built = spawnSync(
  process.execPath,
  ['node_modules/vite/bin/vite.js', 'build', '--config', 'examples/dashboard/vite.config.ts'],
  {
    cwd: root,
    encoding: 'utf8',
  },
);
if (built.status !== 0) {
  console.log(built.stdout, built.stderr);
  console.log('dashboard: 0 passed, 1 failed');
  process.exit(1);
}

const server = spawn(process.execPath, ['examples/dashboard/server.ts', '--static', '--port', '0'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serverOutput = '';
const pageUrl = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`server did not start:\n${serverOutput}`)), 30_000);
  const onData = (chunk) => {
    serverOutput += chunk;
    const match = serverOutput.match(/dashboard: (http:\/\/127\.0\.0\.1:\d+\/)/);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  };
  server.stdout.on('data', onData);
  server.stderr.on('data', onData);
  server.once('exit', (code) => reject(new Error(`server exited ${code}:\n${serverOutput}`)));
});

const browser = await launchChromium();
let passed = 0;
let failed = 0;
async function step(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name} — ${String(err?.message ?? err).split('\n')[0]}`);
  }
}
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on('pageerror', (err) => problems.push(String(err)));
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(pageUrl);
  await step('a live price shows for BTCUSDT', async () => {
    const price = page.locator('#tickers tr[data-symbol="BTCUSDT"] .price');
    await price.waitFor({ timeout: 20_000 });
    const text = await price.textContent();
    if (!/^\d+(\.\d+)?$/.test(text ?? '')) throw new Error(`price cell reads ${JSON.stringify(text)}`);
  });
  await step('the chart has candles', async () => {
    await page.waitForFunction(() => Number(document.querySelector('#chart')?.dataset.candles) > 10, undefined, {
      timeout: 20_000,
    });
    if ((await page.locator('#chart canvas').count()) === 0) throw new Error('no canvas drawn');
  });
  await step('positions show unrealized PnL', async () => {
    await page.locator('#positions tbody tr').first().waitFor({ timeout: 20_000 });
  });
  let orderId;
  await step('an order placed from the page appears in working orders', async () => {
    await page.waitForFunction(() => document.querySelector('#order-price')?.value !== '', undefined, {
      timeout: 20_000,
    });
    const before = await page.locator('#orders tbody tr').count();
    await page.click('#place');
    await page.waitForFunction((n) => document.querySelectorAll('#orders tbody tr').length > n, before, {
      timeout: 20_000,
    });
    orderId = await page.locator('#orders tbody tr').last().getAttribute('data-order-id');
    if (!orderId) throw new Error('new row has no order id');
  });
  await step('the account channel reports it', async () => {
    await page.waitForFunction(
      () => /order_new/.test(document.querySelector('#events')?.textContent ?? ''),
      undefined,
      { timeout: 20_000 },
    );
  });
  if (screenshot) {
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
  }
  await step('the order is cancelled from its button', async () => {
    await page.click(`#orders tr[data-order-id="${orderId}"] button.cancel`);
    await page.waitForFunction((id) => !document.querySelector(`#orders tr[data-order-id="${id}"]`), orderId, {
      timeout: 20_000,
    });
  });
  await step(
    'market data comes from the stream: no ticker, depth or trades request, the chart history once',
    async () => {
      const market = requested.filter((path) => /^\/v2\/(ticker|depth|trades|klines)/.test(path));
      if (market.join() !== '/v2/klines') throw new Error(`market requests: ${market.join(', ')}`);
    },
  );
  await step('the event list shows its numbers inside the card', async () => {
    const position = await page.$eval('#events', (list) => getComputedStyle(list).listStylePosition);
    if (position !== 'inside') throw new Error(`list-style-position: ${position}`);
  });
  await step('no page errors', async () => {
    if (problems.length) throw new Error(problems.join('; '));
  });
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
console.log(`dashboard: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
