/**
 * A real loopback HTTP + WebSocket server in front of a simulated exchange, for clients that cannot take an
 * injected `fetch` (other processes, other languages, `curl`, a page on another origin). Node.js (and Bun, Deno
 * with its Node compatibility) only: `node:http` and the optional peer dependency `ws` are loaded when
 * {@link listenExchange} is called.
 */

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer as WsServer, WebSocket as WsSocket } from 'ws';
import {
  ACCOUNT_CHANNEL_PATH,
  type AccountChannelSocket,
  type ExchangeEndpoint,
  isMissingPackage,
  type ListeningExchange,
  type ListenOptions,
  missingPeerMessage,
} from '../_types.ts';
import { corsPolicy } from './cors.ts';

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

function isNetworkFault(error: unknown): boolean {
  // By name: this entry is a separate bundle, and an ESM and a CommonJS copy of the kit may both be loaded.
  return (
    error instanceof Error &&
    error.name === 'SimulatedNetworkError' &&
    ((error as { code?: unknown }).code === 'ECONNRESET' || (error as { code?: unknown }).code === 'ECONNREFUSED')
  );
}

async function loadWs(): Promise<typeof import('ws')> {
  try {
    const mod = (await import('ws')) as typeof import('ws') & { default?: typeof import('ws') };
    return mod.WebSocketServer ? mod : (mod.default ?? mod);
  } catch (cause) {
    if (!isMissingPackage(cause, 'ws')) throw cause;
    throw new Error(missingPeerMessage('ws', 'listen() (the account WebSocket)'), { cause });
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function toRequest(req: IncomingMessage, body: Buffer, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    // HTTP/2 pseudo-headers and hop-by-hop headers are not valid in a WHATWG Request.
    if (name.startsWith(':')) continue;
    headers.append(name, req.rawHeaders[i + 1] as string);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && body.length > 0;
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    ...(hasBody ? { body: new Uint8Array(body) } : {}),
  });
}

async function writeResponse(res: ServerResponse, response: Response, method: string): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body || method === 'HEAD') {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve));
  }
  res.end();
}

function adaptWs(socket: WsSocket): AccountChannelSocket {
  return {
    send: (text) => socket.send(text),
    close: (code, reason) => socket.close(code, reason),
    onClose: (listener) => {
      socket.once('close', listener);
    },
    onMessage: (listener) => {
      socket.on('message', (data, isBinary) => {
        if (!isBinary) listener(String(data));
      });
    },
    bufferedAmount: () => socket.bufferedAmount,
  };
}

/**
 * Starts a real HTTP server on 127.0.0.1 (never on a public interface) that forwards every request to the
 * exchange's handler and serves the account WebSocket on `/v2/ws/account`.
 *
 * A `SimulatedNetworkError` from the handler destroys the client's socket without a response: `ECONNRESET` as
 * the real thing, and `ECONNREFUSED` too, because a connection that was already accepted cannot be refused
 * after the fact (the client sees a reset, `socket hang up`, instead of a refusal).
 *
 * @throws {Error} when the optional peer dependency `ws` is not installed, or `host` is not a loopback address.
 */
export async function listenExchange(
  exchange: ExchangeEndpoint,
  options: ListenOptions = {},
): Promise<ListeningExchange> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host)) {
    throw new Error(`futures-sdk/testing: listen() binds loopback addresses only, not ${JSON.stringify(host)}`);
  }
  const cors = corsPolicy(options.cors);
  const { WebSocketServer } = await loadWs();
  const http = await import('node:http');
  const wss: WsServer = new WebSocketServer({ noServer: true });
  const upgrading = new Set<Duplex>();
  let origin = '';

  const server: Server = http.createServer((req, res) => {
    void (async () => {
      try {
        const body = await readBody(req);
        const request = toRequest(req, body, origin);
        const preflight = cors?.preflight(request);
        if (preflight) {
          await writeResponse(res, preflight, 'OPTIONS');
          return;
        }
        let response = await exchange.handler(request, { remoteAddress: req.socket.remoteAddress ?? '127.0.0.1' });
        if (cors) {
          const headers = new Headers(response.headers);
          cors.decorate(headers, request.headers.get('origin'));
          response = new Response(response.body, { status: response.status, statusText: response.statusText, headers });
        }
        await writeResponse(res, response, req.method ?? 'GET');
      } catch (error) {
        if (isNetworkFault(error)) {
          req.socket.destroy();
          return;
        }
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: false, error: 'Simulator transport error' }));
      }
    })();
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== ACCOUNT_CHANNEL_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    upgrading.add(socket);
    socket.once('close', () => upgrading.delete(socket));
    wss.handleUpgrade(req, socket, head, (ws) => {
      upgrading.delete(socket);
      exchange.openAccountChannel(adaptWs(ws), url);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('listen(): the server has no TCP address');
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${hostPart}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    wsUrl: `ws://${hostPart}:${address.port}${ACCOUNT_CHANNEL_PATH}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const client of wss.clients) client.terminate();
        for (const socket of upgrading) socket.destroy();
        wss.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
