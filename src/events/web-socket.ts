/**
 * The part of a WebSocket that {@link AccountStream} uses. Structural on purpose: the runtime's
 * `globalThis.WebSocket` (browsers, Node 22+) and the `ws` package's class both satisfy it as they are, without
 * a cast, and so does a small fake in tests.
 *
 * @example
 * ```ts
 * import WebSocket from 'ws';
 * import type { WebSocketConstructor } from 'futures-sdk';
 * const impl: WebSocketConstructor = WebSocket; // no cast needed
 * const stream = client.stream({ url, token, WebSocket: impl });
 * ```
 */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** Set to `'arraybuffer'` when the implementation allows it (binary frames are then decoded as UTF-8). */
  binaryType?: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** `ws` only: drops the connection without the closing handshake (used when a peer stops answering). */
  terminate?(): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: WebSocketMessageEventLike) => void): void;
  addEventListener(type: 'error', listener: (event: WebSocketErrorEventLike) => void): void;
  addEventListener(
    type: 'close',
    listener: (event: WebSocketCloseEventLike) => void,
    options?: { once?: boolean },
  ): void;
}

/**
 * What the stream reads from a `message` event: the frame, as text (or binary, decoded as UTF-8).
 *
 * @example
 * ```ts
 * import type { WebSocketMessageEventLike } from 'futures-sdk';
 * // a fake socket in a test delivers an account message to the stream's listener
 * const event: WebSocketMessageEventLike = { data: JSON.stringify({ event: 'order_new', data: { id: 'o1' } }) };
 * messageListener(event);
 * ```
 */
export interface WebSocketMessageEventLike {
  readonly data: unknown;
}

/**
 * What the stream reads from an `error` event. Browsers give a bare `Event`; `ws` and Node's built-in WebSocket
 * add `message` and/or `error` (e.g. "Unexpected server response: 401", which the stream treats as a refused
 * login).
 *
 * @example
 * ```ts
 * import type { WebSocketErrorEventLike } from 'futures-sdk';
 * // what `ws` reports when the upgrade is refused: the stream turns it into an AuthenticationError
 * const event: WebSocketErrorEventLike = { type: 'error', message: 'Unexpected server response: 401' };
 * errorListener(event);
 * ```
 */
export interface WebSocketErrorEventLike {
  readonly type: string;
  readonly message?: unknown;
  readonly error?: unknown;
}

/**
 * What the stream reads from a `close` event.
 *
 * @example
 * ```ts
 * import type { WebSocketCloseEventLike } from 'futures-sdk';
 * // 4001: the server refused the token, so the stream stops as `unauthorized` instead of reconnecting
 * const event: WebSocketCloseEventLike = { code: 4001, reason: 'unauthorized' };
 * closeListener(event);
 * ```
 */
export interface WebSocketCloseEventLike {
  readonly code: number;
  readonly reason: string;
}

/**
 * A WebSocket constructor: `globalThis.WebSocket`, the `ws` package's default export, or anything with the same
 * constructor signature whose instances are {@link WebSocketLike}.
 *
 * @example
 * ```ts
 * import WebSocket from 'ws';
 * import { FuturesClient, type WebSocketConstructor } from 'futures-sdk';
 * const impl: WebSocketConstructor = WebSocket;
 * const client = new FuturesClient({ baseUrl: 'https://api.example.com', WebSocket: impl });
 * ```
 */
export type WebSocketConstructor = new (url: string | URL, protocols?: string | string[]) => WebSocketLike;
