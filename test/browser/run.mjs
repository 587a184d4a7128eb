// Browser test: bundles test/browser/entry.ts against the built `futures-sdk` (dist/) for the browser platform
// (the bundle fails if the SDK needs a Node built-in), serves it on 127.0.0.1 next to a proxy to the simulated
// exchange (same origin: no CORS, `Date` readable), and runs it in headless Debian Chromium.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { createExchange } from '../../dist/testing/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bundle = await build({
  entryPoints: [`${root}test/browser/entry.ts`],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  alias: { 'futures-sdk': `${root}dist/index.js` },
  logLevel: 'error',
});
const script = bundle.outputFiles[0].text;

const ex = createExchange({ seed: 7 });
const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });

const jwt = ex.issueJwt(accountId);
const live = await ex.listen();

const server = createServer(async (req, res) => {
  if (req.url === '/' || req.url?.startsWith('/?')) {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><meta charset="utf-8"><script type="module" src="/bundle.js"></script>');
    return;
  }
  if (req.url === '/bundle.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(script);
    return;
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  try {
    const response = await ex.fetch(`${ex.baseUrl}${req.url}`, { method: req.method, headers, body });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch {
    res.destroy();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
});
let failed = 0;
let passed = 0;
try {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.goto(
    `http://127.0.0.1:${port}/?key=${encodeURIComponent(apiKey)}&secret=${encodeURIComponent(apiSecret)}` +
      `&ws=${encodeURIComponent(live.wsUrl)}&jwt=${encodeURIComponent(jwt)}`,
  );
  await page.waitForFunction(() => window.__results !== undefined, undefined, { timeout: 30_000 });
  const results = await page.evaluate(() => window.__results);
  if (!Array.isArray(results)) {
    failed++;
    console.log('FAIL fatal:', JSON.stringify(results), pageErrors.join('\n'));
  } else {
    for (const r of results) {
      if (r.ok) passed++;
      else failed++;
      console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.detail ? ` — ${r.detail}` : ''}`);
    }
  }
} catch (err) {
  failed++;
  console.log('FAIL', err);
} finally {
  await browser.close();
  server.close();
  await live.close();
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
