/**
 * A fault-injecting HTTP proxy on 127.0.0.1 in front of a real upstream (the simulator's loopback server), so
 * faults happen as they do on a wire: the upstream really acts on the request, then the proxy stalls the body,
 * drops the connection, cuts the body, or answers in the upstream's place (5xx, 429, HTML, a redirect).
 *
 * Faults are queued per `'METHOD /path for <apiKey>'`; each matching request takes the next one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the proxy does with one request instead of passing it through. */
export type Fault =
  /** Forwards, then sends the upstream's headers and half its body, and stalls for good. */
  | { kind: 'stall-after-headers' }
  /** Forwards (the upstream acts), waits for the whole answer, then drops the connection. */
  | { kind: 'drop-after-acting' }
  /** Forwards, then sends the upstream's status and headers with its body cut in half. */
  | { kind: 'truncated' }
  /** Forwards, then sends the upstream's status and headers with an empty body. */
  | { kind: 'empty' }
  /**
   * Forwards a copy first (the upstream acts on it), then the request itself, and answers with the second
   * response: what a retrying proxy or a replaying eavesdropper does. The server answers the second one
   * `401 Signature replay detected`.
   */
  | { kind: 'duplicate' }
  /** Answers in the upstream's place; the upstream never sees the request. */
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body: string };

/** One request as it reached the proxy. */
export interface ProxiedRequest {
  method: string;
  /** Path with the query. */
  url: string;
  apiKey: string | undefined;
  signature: string | undefined;
  fault: Fault['kind'] | 'pass';
}

export interface FaultProxy {
  readonly url: string;
  readonly requests: ProxiedRequest[];
  queue(route: string, ...faults: Fault[]): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const queues = new Map<string, Fault[]>();
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();

  const forward = async (req: IncomingMessage, body: Buffer) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
    }
    const response = await fetch(`${upstream}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      redirect: 'manual',
    });
    const text = Buffer.from(await response.arrayBuffer());
    const outHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') outHeaders[name] = value;
    });
    return { status: response.status, headers: outHeaders, body: text };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    const apiKey = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined;
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    const fault = queues.get(`${req.method} ${path} for ${apiKey}`)?.shift();
    requests.push({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      apiKey,
      signature: query.get('signature') ?? undefined,
      fault: fault?.kind ?? 'pass',
    });
    if (fault?.kind === 'answer') {
      res.writeHead(fault.status, { Date: new Date().toUTCString(), ...fault.headers });
      res.end(fault.body);
      return;
    }
    if (fault?.kind === 'duplicate') await forward(req, body);
    const answer = await forward(req, body);
    switch (fault?.kind) {
      case undefined:
      case 'duplicate':
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        return;
      case 'drop-after-acting':
        res.socket?.destroy();
        return;
      case 'stall-after-headers':
        res.writeHead(answer.status, answer.headers);
        res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
        return; // never ends: closed with the proxy
      case 'truncated':
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
        return;
      case 'empty':
        res.writeHead(answer.status, answer.headers);
        res.end();
        return;
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.socket?.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    queue(route, ...faults) {
      queues.set(route, [...(queues.get(route) ?? []), ...faults]);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server that only records what reaches it (the other origin of a redirect). */
export async function startRecorder(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} key=${String(req.headers['x-api-key'])}`);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
