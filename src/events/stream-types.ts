// The account stream's public shapes, and the pure rules of its `maxMessageBytes` option, beside its documentation.

import { fail } from '../_internal/client-options.ts';
import type { FuturesError } from '../errors/futures-error.ts';
import type { Clock, Logger } from '../options.ts';
import type { WebSocketConstructor } from './web-socket.ts';

/** Lifecycle of an {@link AccountStream}. `unauthorized` and `closed` are terminal. */
export type AccountStreamState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'unauthorized' | 'closed';

/** The firehose channels (spec, Events rule 4). Other names are passed through as strings. */
export type MarketChannel = 'depth' | 'trades' | 'ticker' | 'kline' | (string & {});

/** A market-data message for one of the stream's `symbols`. */
export interface MarketMessage {
  /** Symbol as the server wrote it before `@`, e.g. `BTCUSDT`. */
  symbol: string;
  channel: MarketChannel;
  /** Payload as sent (the spec does not document market payloads). */
  data: unknown;
}

/** Payload of `order_new`, `order_canceled`, `order_update` (undocumented: the simulator sends the Order); all kept. */
export interface OrderEventData {
  readonly [field: string]: unknown;
  readonly id?: string;
  readonly symbol?: string;
  readonly status?: string;
}

/** Payload of `position_update`: the spec guarantees `symbol` and the new signed `quantity` (Events rule 1). */
export interface PositionUpdateData {
  readonly [field: string]: unknown;
  readonly symbol: string;
  /** New signed position quantity (decimal string). */
  readonly quantity: string;
  readonly positionSide?: string;
}

/** Payload of `full_snapshot` (periodic account snapshot; fields not documented by the spec, all kept). */
export interface FullSnapshotData {
  readonly [field: string]: unknown;
}

/** An account message whose `event` name the SDK does not know (kept, never dropped silently). */
export interface UnknownAccountEvent {
  event: string;
  data: unknown;
}

/** Events of {@link AccountStream} and their arguments. */
export interface AccountStreamEvents {
  order_new: [data: OrderEventData];
  order_canceled: [data: OrderEventData];
  order_update: [data: OrderEventData];
  position_update: [data: PositionUpdateData];
  full_snapshot: [data: FullSnapshotData];
  /** An account message with an event name not listed here. */
  unknown_event: [message: UnknownAccountEvent];
  /** Market data, only for the `symbols` option. */
  market: [message: MarketMessage];
  /** The socket opened (first connection and every reconnection). */
  open: [];
  /** A reconnect is scheduled after `delayMs`. */
  reconnecting: [info: { attempt: number; delayMs: number }];
  /** The socket opened again after a drop: resync state over REST (events sent while down are lost). */
  reconnected: [info: { attempts: number }];
  /** The socket closed. `willReconnect` false means the stream has stopped (closed or unauthorized). */
  close: [info: { code: number; reason: string; willReconnect: boolean }];
  /** A StreamError, an AuthenticationError (login refused) or a ListenerError (another event's listener threw). */
  error: [error: FuturesError];
}

/** Reconnect backoff settings. */
export interface BackoffOptions {
  /** First delay. @default 500 */
  baseDelayMs?: number | undefined;
  /** Largest delay. @default 30000 */
  maxDelayMs?: number | undefined;
}

/** Supplies the JWT: a string, or a function called on every (re)connect (so a refreshed token is used). */
export type StreamToken = string | (() => string | Promise<string>);

/** Options of {@link AccountStream} (`client.stream(options)`). */
export interface AccountStreamOptions {
  /** Account-channel address, e.g. `wss://api.example.com/v2/ws/account` (the spec does not name one). */
  url: string;
  /** The JWT session token (the channel accepts no API key, spec Authentication rule 9). */
  token: StreamToken;
  /** Symbols whose market data you want as `market` events; the rest of the firehose is dropped unparsed. */
  symbols?: readonly string[] | undefined;
  /** WebSocket constructor (e.g. the `ws` package's); overrides the client's. @default globalThis.WebSocket */
  WebSocket?: WebSocketConstructor | undefined;
  /** The address to connect to, for servers whose handshake differs. @default `url` + the `token` query parameter */
  buildUrl?: ((url: string, token: string) => string | URL) | undefined;
  /** WebSocket subprotocols, or a function of the token (for servers that take the token as a subprotocol). */
  protocols?: string | string[] | ((token: string) => string | string[]) | undefined;
  /**
   * Reconnect after silence of this long (the idle firehose makes silence abnormal); also bounds the handshake.
   * `0` disables the watchdog. @default 30000
   */
  heartbeatTimeoutMs?: number | undefined;
  /**
   * Largest message accepted, in bytes (UTF-8 for text, `byteLength`/`size` for binary): a positive integer, else
   * `ConfigurationError`. A larger one is not parsed: the stream closes that connection, emits `error` (`StreamError`,
   * kind `connection`, `closeCode` 1009) and reconnects as after a drop. The WebSocket has already received it by
   * then; the `ws` package's `maxPayload` option refuses it while it arrives. @default 4194304 (4 MiB)
   */
  maxMessageBytes?: number | undefined;
  /** Send the text `ping` this often (the simulator answers `pong`); `0`: none. @default 0 */
  pingIntervalMs?: number | undefined;
  /**
   * Reconnect backoff (jittered exponential), or `false` to stop after the first drop.
   * @default { baseDelayMs: 500, maxDelayMs: 30000 }
   */
  reconnect?: (BackoffOptions & { maxAttempts?: number | undefined }) | false | undefined;
  /** Start connecting right away (on the next microtask, so listeners added synchronously see `open`). @default true */
  autoConnect?: boolean | undefined;
  /**
   * Time for backoff, ping and watchdog; without `setTimeout`/`clearTimeout` the stream stays on real time (the
   * watchdog compares `now()` between its own timers). @default the client's (`new AccountStream`: the system's)
   */
  clock?: Clock | undefined;
  /** Receives lifecycle lines and errors thrown by your listeners (also emitted as `error`); never the token. */
  logger?: Logger | undefined;
}

// ── maxMessageBytes ───────────────────────────────────────────────────────────────────────────────────────────

/** RFC 6455 "Message Too Big": the close code the stream reports when it drops a connection for a large message. */
export const TOO_BIG_CLOSE_CODE = 1009;

/** The `maxMessageBytes` option, validated: a positive integer, 4 MiB when absent. @internal */
export function maxMessageBytesOption(value: unknown): number {
  if (value === undefined) return 4_194_304; // 4 MiB
  // Number.isSafeInteger is false for anything but a number.
  if (!Number.isSafeInteger(value) || (value as number) <= 0) {
    fail('stream maxMessageBytes must be a positive integer (bytes)');
  }
  return value as number;
}

/**
 * True when a message is over `max` bytes (UTF-8 for text), measured without encoding it: a string has 1 to 3
 * bytes per UTF-16 unit, so only lengths in between are counted (stopping past `max`). @internal
 */
export function exceedsBytes(raw: unknown, max: number): boolean {
  if (typeof raw === 'string') {
    if (raw.length > max) return true;
    if (raw.length * 3 <= max) return false;
    let bytes = 0;
    for (let i = 0; i < raw.length && bytes <= max; i++) {
      const unit = raw.charCodeAt(i);
      // A surrogate pair is one 4-byte code point; the rest of the BMP, and a lone surrogate (sent as U+FFFD), 3.
      bytes +=
        unit < 0x80
          ? 1
          : unit < 0x800
            ? 2
            : (unit & 0xfc00) === 0xd800 && (raw.charCodeAt(i + 1) & 0xfc00) === 0xdc00 && ++i
              ? 4
              : 3;
    }
    return bytes > max;
  }
  if (raw instanceof ArrayBuffer || ArrayBuffer.isView(raw)) return raw.byteLength > max;
  return typeof Blob !== 'undefined' && raw instanceof Blob && raw.size > max;
}
