/**
 * The part of a WebSocket that {@link AccountStream} uses. Structural on purpose: the runtime's
 * `globalThis.WebSocket` (browsers, Node 22+) and the `ws` package's class both satisfy it as they are, without
 * a cast, and so does a small fake in tests.
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

/** What the stream reads from a `message` event: the frame, as text (or binary, decoded as UTF-8). */
export interface WebSocketMessageEventLike {
  readonly data: unknown;
}

/**
 * What the stream reads from an `error` event. Browsers give a bare `Event`; `ws` and Node's built-in WebSocket
 * add `message` and/or `error` (e.g. "Unexpected server response: 401", which the stream treats as a refused
 * login).
 */
export interface WebSocketErrorEventLike {
  readonly type: string;
  readonly message?: unknown;
  readonly error?: unknown;
}

/** What the stream reads from a `close` event. */
export interface WebSocketCloseEventLike {
  readonly code: number;
  readonly reason: string;
}

/**
 * A WebSocket constructor: `globalThis.WebSocket`, the `ws` package's default export, or anything with the same
 * constructor signature whose instances are {@link WebSocketLike}.
 */
export type WebSocketConstructor = new (url: string | URL, protocols?: string | string[]) => WebSocketLike;
