// Browser test: bundles test/browser/entry.ts against the built `futures-sdk` (dist/) for the browser platform
// (the bundle fails if the SDK needs a Node built-in), serves it on 127.0.0.1 next to a proxy to the simulated
// exchange (same origin: no CORS, `Date` readable), and runs it in headless Debian Chromium. Then
// test/browser/cors-entry.ts runs from the same page server against `ex.listen({ cors: true })` on another
// 127.0.0.1 port: cross-origin signed calls, preflights, and the `Date` / `Retry-After` headers.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createExchange } from '../../dist/testing/index.js';
import { launchChromium } from './launch.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
async function bundle(entry) {
  const result = await build({
    entryPoints: [`${root}test/browser/${entry}`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    alias: { 'futures-sdk': `${root}dist/index.js` },
    logLevel: 'error',
  });
  return result.outputFiles[0].text;
}
const scripts = { '/bundle.js': await bundle('entry.ts'), '/cors.js': await bundle('cors-entry.ts') };

const ex = createExchange({ seed: 7 });
const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });

const jwt = ex.issueJwt(accountId);
const live = await ex.listen();

// The cross-origin exchange runs 30 s ahead of real time, so the client must read `Date` to sign at all.
const remote = createExchange({ seed: 8, now: () => Date.now() + 30_000 });
const remoteAccount = remote.createAccount({ balances: { USDT: '100000' } });
const remoteKey = remote.createApiKey(remoteAccount.accountId, { permissions: ['TRADE'] });
// One 429 for the page's raw fetch, two for the client's call and its one retry.
remote.faults.add({ method: 'GET', path: '/v2/funding-rate', status: 429, headers: { 'Retry-After': '1' }, times: 3 });
const withCors = await remote.listen({ cors: true });
const withoutCors = await remote.listen();

const server = createServer(async (req, res) => {
  if (req.url === '/' || req.url?.startsWith('/?') || req.url?.startsWith('/cors?')) {
    const src = req.url.startsWith('/cors') ? '/cors.js' : '/bundle.js';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><meta charset="utf-8"><script type="module" src="${src}"></script>`);
    return;
  }
  if (req.url in scripts) {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(scripts[req.url]);
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

const browser = await launchChromium();
let failed = 0;
let passed = 0;

async function runPage(url) {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.goto(url);
  await page.waitForFunction(() => window.__results !== undefined, undefined, { timeout: 30_000 });
  const results = await page.evaluate(() => window.__results);
  if (!Array.isArray(results)) {
    failed++;
    console.log('FAIL fatal:', JSON.stringify(results), pageErrors.join('\n'));
    return;
  }
  for (const r of results) {
    if (r.ok) passed++;
    else failed++;
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.detail ? ` — ${r.detail}` : ''}`);
  }
}

const q = (params) => new URLSearchParams(params).toString();
try {
  await runPage(`http://127.0.0.1:${port}/?${q({ key: apiKey, secret: apiSecret, ws: live.wsUrl, jwt })}`);
  await runPage(
    `http://127.0.0.1:${port}/cors?${q({ key: remoteKey.apiKey, secret: remoteKey.apiSecret, api: withCors.url, closed: withoutCors.url })}`,
  );
  // The preflights reached the server but not the exchange: the exchange saw only the real calls.
  if (remote.requests.some((r) => r.method === 'OPTIONS')) {
    failed++;
    console.log('FAIL preflights were passed on to the exchange');
  } else {
    passed++;
    console.log('ok   preflights are answered by the server, never logged as exchange requests');
  }
} catch (err) {
  failed++;
  console.log('FAIL', err);
} finally {
  await browser.close();
  server.close();
  await Promise.all([live.close(), withCors.close(), withoutCors.close()]);
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
