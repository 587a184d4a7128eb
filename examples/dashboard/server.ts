/**
 * The dashboard's local back end, in one command (`npm run dashboard`): a simulated exchange on 127.0.0.1 that
 * answers browser CORS preflights, and a page server that serves the dashboard and holds the API secret.
 *
 * The secret never reaches the page. The page's client uses the `signer` option: it POSTs the canonical query
 * to `/sign` here and appends the hex HMAC it gets back. A real deployment puts the same endpoint behind the
 * user's session and decides which payloads it will sign; this demo only checks that the request comes from
 * the page's own origin.
 *
 * Run: `npm run dashboard` (builds the SDK, then starts everything; open the printed address).
 * Flags: `--static` serves the production build in examples/dashboard/dist (`vite build`) instead of Vite's dev
 * server; `--port N` picks the page port (default 5173, 0 for any free port).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FuturesClient, hmacSha256Hex } from 'futures-sdk';
import { createExchange } from 'futures-sdk/testing';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const staticMode = args.includes('--static');
const portArg = args.indexOf('--port');
const pagePort = portArg >= 0 ? Number(args[portArg + 1]) : 5173;
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];

// ── The simulated exchange, with an account that already holds a position ─────────────────────────────────

const ex = createExchange({ seed: 11 });
const { accountId } = ex.createAccount({ balances: { USDT: '250000' } });
const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
const api = await ex.listen({ cors: true });
const seedClient = new FuturesClient({ baseUrl: api.url, apiKey, apiSecret });
await seedClient.orders.create({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.05' });
await seedClient.orders.create({ symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET', quantity: '1' });

// ── The page server: the page, its config, the signing endpoint ──────────────────────────────────────────

const vite = staticMode
  ? undefined
  : await (await import('vite')).createServer({
      configFile: join(here, 'vite.config.ts'),
      server: { middlewareMode: true, hmr: false },
      appType: 'spa',
    });

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('payload too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function serveStatic(pathname: string, res: ServerResponse): Promise<void> {
  const dist = join(here, 'dist');
  const file = normalize(join(dist, pathname === '/' ? 'index.html' : pathname));
  if (!file.startsWith(dist)) {
    res.writeHead(404).end();
    return;
  }
  try {
    const bytes = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(bytes);
  } catch {
    res.writeHead(404).end();
  }
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  try {
    if (url.pathname === '/config') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiBaseUrl: api.url, wsUrl: api.wsUrl, apiKey, symbols: SYMBOLS }));
      return;
    }
    if (url.pathname === '/sign' && req.method === 'POST') {
      // Only the page itself may ask: a browser sends Origin on every cross-origin and every POST request.
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== `http://${req.headers.host}`) {
        res.writeHead(403).end();
        return;
      }
      const payload = await readBody(req);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(hmacSha256Hex(apiSecret, payload));
      return;
    }
    if (url.pathname === '/jwt') {
      // Stands in for a wallet sign-in: the account channel accepts only a JWT session.
      res.writeHead(200, { 'content-type': 'text/plain' }).end(ex.issueJwt(accountId));
      return;
    }
    if (vite) vite.middlewares(req, res);
    else await serveStatic(url.pathname, res);
  } catch (err) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
  }
});
await new Promise<void>((resolve) => server.listen(pagePort, '127.0.0.1', resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : pagePort;
console.log(`dashboard: http://127.0.0.1:${port}/  (simulated API ${api.url}, Ctrl+C to stop)`);

async function shutdown(): Promise<void> {
  server.close();
  await vite?.close();
  await api.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
