/**
 * The simulator's WebSocket account channel, independent of the socket implementation: the loopback server
 * (`ws`) and the MSW handlers both adapt their sockets to {@link AccountChannelSocket} and call
 * `ex.openAccountChannel`, which calls {@link attachAccountChannel}.
 *
 * Protocol (the spec leaves it unstated; this is the SDK's documented assumption):
 * - Handshake: a JWT in the `token` query parameter. A missing, invalid or expired token, or any attempt to
 *   authenticate with an API key, is closed with code 4001 and reason `Unauthorized`.
 * - Account events: `{ event, data }` text frames (`order_new`, `order_canceled`, `order_update`,
 *   `position_update`), plus `{ event: 'full_snapshot', data }` once on connect and then every
 *   `snapshotIntervalMs`.
 * - Market firehose: from the moment the connection is accepted, `{ stream: '<SYMBOL>@<channel>', data }` frames
 *   for every active symbol and the channels depth, trades, ticker and kline, at about `firehoseRate` messages
 *   per second (default 350), whether or not the client wants them.
 * - Heartbeat: a text frame `ping` is answered with a text frame `pong`. Other client frames are ignored.
 */

import type { AccountChannelHost, AccountChannelSocket, AccountEvent } from './_types.ts';
import type { SimMarketChannel } from './market/types.ts';

/** The socket the channel runs on (see {@link AccountChannelSocket}). */
export type ChannelSocket = AccountChannelSocket;

/**
 * Timer functions, injectable for tests; default to the global ones (handles are `unref`'d where possible).
 */
export interface ChannelTimers {
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  setInterval?: (callback: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  /** Monotonic-enough ms clock used to pace the firehose (default `performance.now`). */
  now?: () => number;
}

/**
 * Options of {@link attachAccountChannel}.
 */
export interface AccountChannelOptions extends ChannelTimers {
  /** Firehose messages per second across all symbols and channels (default 350; `0` disables it). */
  firehoseRate?: number;
  /** Period of `full_snapshot` events in ms (default 30 000). */
  snapshotIntervalMs?: number;
  /** Firehose timer period in ms (default 50: each tick sends the messages due since the last one). */
  firehoseTickMs?: number;
}

/**
 * Close code sent when the handshake is refused (reason `Unauthorized`).
 */
export const CHANNEL_UNAUTHORIZED_CODE = 4001;

const CHANNELS: readonly SimMarketChannel[] = ['depth', 'trades', 'ticker', 'kline'];
/** Above this many queued bytes the firehose pauses for the slow client (the account events still go out). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** A stalled event loop must not turn into one huge burst: a tick sends at most this many periods' worth. */
const MAX_CATCH_UP_TICKS = 4;

function unref(handle: unknown): void {
  if (typeof handle === 'object' && handle !== null && 'unref' in handle && typeof handle.unref === 'function') {
    handle.unref();
  }
}

/** Query parameters a client might use to try API-key authentication, which the channel never accepts. */
const API_KEY_PARAMS = ['apiKey', 'api_key', 'apikey', 'x-api-key', 'X-API-KEY', 'signature'];

/**
 * Runs the account channel on an accepted socket: checks the JWT handshake, then pushes account events,
 * periodic `full_snapshot`s and the market firehose until the socket closes. Every timer and subscription is
 * released on close.
 */
export function attachAccountChannel(
  socket: ChannelSocket,
  requestUrl: URL,
  host: AccountChannelHost,
  options: AccountChannelOptions = {},
): void {
  const token = requestUrl.searchParams.get('token');
  const triesApiKey = API_KEY_PARAMS.some((name) => requestUrl.searchParams.has(name));
  let session: { accountId: string } | undefined;
  if (token && !triesApiKey) {
    try {
      session = host.verifyJwt(token);
    } catch {
      session = undefined;
    }
  }
  if (!session) {
    socket.close(CHANNEL_UNAUTHORIZED_CODE, 'Unauthorized');
    return;
  }
  const { accountId } = session;

  const setTimer = options.setTimeout ?? ((cb: () => void, ms: number) => globalThis.setTimeout(cb, ms));
  const clearTimer =
    options.clearTimeout ?? ((h: unknown) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>));
  const setRepeat = options.setInterval ?? ((cb: () => void, ms: number) => globalThis.setInterval(cb, ms));
  const clearRepeat =
    options.clearInterval ?? ((h: unknown) => globalThis.clearInterval(h as ReturnType<typeof setInterval>));
  const now = options.now ?? (() => performance.now());
  const rate = options.firehoseRate ?? 350;
  const tickMs = options.firehoseTickMs ?? 50;
  const snapshotIntervalMs = options.snapshotIntervalMs ?? 30_000;

  let closed = false;
  const send = (message: unknown): void => {
    if (closed) return;
    try {
      socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    } catch {
      // The peer went away between two frames; the close listener cleans up.
    }
  };

  const unsubscribe = host.subscribeAccount(accountId, (event: AccountEvent) => {
    send({ event: event.event, data: event.data });
  });
  // Runs inside timer callbacks: an exception there would crash the whole test process, so a failing snapshot
  // or payload is skipped (that frame is lost) instead.
  const guarded = (produce: () => unknown): void => {
    let message: unknown;
    try {
      message = produce();
    } catch {
      return;
    }
    send(message);
  };
  const sendSnapshot = (): void => guarded(() => ({ event: 'full_snapshot', data: host.snapshot(accountId) }));

  let cursor = 0;
  let budget = 0;
  let lastTick = now();
  let firehoseTimer: unknown;
  const sendFirehose = (count: number): void => {
    let symbols: readonly string[];
    try {
      symbols = host.activeSymbols();
    } catch {
      return;
    }
    if (symbols.length === 0) return;
    for (let i = 0; i < count && !closed; i++) {
      // Channel-major order: one pass of a channel covers every symbol before the next channel starts.
      const position = cursor % (symbols.length * CHANNELS.length);
      const symbol = symbols[position % symbols.length] as string;
      const channel = CHANNELS[Math.floor(position / symbols.length)] as SimMarketChannel;
      cursor = position + 1;
      guarded(() => ({ stream: `${symbol}@${channel}`, data: host.marketPayload(symbol, channel) }));
    }
  };
  const firehoseTick = (): void => {
    firehoseTimer = undefined;
    if (closed) return;
    const at = now();
    budget = Math.min(budget + ((at - lastTick) * rate) / 1000, (rate * tickMs * MAX_CATCH_UP_TICKS) / 1000);
    lastTick = at;
    const due = Math.floor(budget);
    budget -= due;
    if ((socket.bufferedAmount?.() ?? 0) < MAX_BUFFERED_BYTES) sendFirehose(due);
    scheduleFirehose();
  };
  const scheduleFirehose = (): void => {
    if (closed || rate <= 0) return;
    firehoseTimer = setTimer(firehoseTick, tickMs);
    unref(firehoseTimer);
  };

  const snapshotTimer = setRepeat(sendSnapshot, snapshotIntervalMs);
  unref(snapshotTimer);

  socket.onClose(() => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearRepeat(snapshotTimer);
    if (firehoseTimer !== undefined) clearTimer(firehoseTimer);
    firehoseTimer = undefined;
  });
  socket.onMessage?.((text) => {
    if (text.trim().toLowerCase() === 'ping') send('pong');
  });

  sendSnapshot();
  // The spec: the firehose starts immediately after the upgrade, independent of any subscription.
  if (rate > 0) {
    sendFirehose(Math.max(1, Math.round((rate * tickMs) / 1000)));
    scheduleFirehose();
  }
}
