/**
 * The part of a WebSocket that {@link AccountStream} uses: structural, so `globalThis.WebSocket` (browsers, Node
 * 22+), the `ws` package's class and a small test fake all satisfy it without a cast.
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
 * What the stream reads from an `error` event: a bare `Event` in browsers; `ws` and Node's WebSocket add `message`
 * and/or `error` (e.g. "Unexpected server response: 401", which the stream treats as a refused login).
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

/** A WebSocket constructor (`globalThis.WebSocket`, `ws`'s default export, …) making {@link WebSocketLike}s. */
export type WebSocketConstructor = new (url: string | URL, protocols?: string | string[]) => WebSocketLike;
