// The stream's URL and socket helpers: renderings of URLs and socket errors never carry a token.
import { redact } from '../_internal/redact.ts';
import type { WebSocketErrorEventLike, WebSocketLike } from './web-socket.ts';

export function defaultUrl(url: string, token: string): URL {
  const target = new URL(url);
  target.searchParams.set('token', token);
  return target;
}

/** The URL without query or fragment, so that a token in it never reaches a message. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '[invalid url]';
  }
}

export function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '/';
  }
}

export function describeSocketError(event: WebSocketErrorEventLike): string {
  // The event's own message, else its error's; the query and fragment (a token) are cut, the rest redacted.
  const message = [event.message, (event.error as { message?: unknown } | null | undefined)?.message].find(
    (text): text is string => typeof text === 'string' && text !== '',
  );
  return message ? redact(message.replace(/[?#]\S*/g, '')) : 'connection error';
}

export function terminate(socket: WebSocketLike): void {
  try {
    socket.terminate?.();
  } catch {
    // Already gone.
  }
}

/**
 * `socket.close(code, reason)`, else `close(1000, reason)` when the implementation refuses `code` from a client
 * (browsers and undici throw on 1009); then `terminate`, for a half-open socket (a no-op without socket).
 */
export function closeSocket(socket: WebSocketLike | undefined, code: number, reason: string): void {
  if (!socket) return;
  for (const closeCode of [code, 1000]) {
    try {
      socket.close(closeCode, reason);
      break;
    } catch {
      // Refused: try the next code.
    }
  }
  terminate(socket);
}
