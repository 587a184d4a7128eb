// Reading an answer: the body (raced against the deadline), its JSON, a redirect's target, a Retry-After.

/** Resolves nothing; for promises whose loss of a race must not become an unhandled rejection. */
export const noop = (): void => {};

export type ParsedBody = { json: true; value: unknown } | { json: false; value: string };

export function parseBody(text: string): ParsedBody {
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false, value: text };
  }
}

/**
 * Milliseconds from a `Retry-After` (delta-seconds or a future HTTP-date), else undefined (negative, not a number,
 * a past date). Huge values (even `Infinity`) come back as they are: the caller clamps them.
 */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  // The header sent twice reaches us joined by commas ("3600, 1.5"): the longest delay asked for is kept.
  const parts = trimmed.split(',').map((part) => part.trim());
  if (parts.every((part) => /^\d+(\.\d+)?$/.test(part))) {
    return Math.max(...parts.map((part) => Math.ceil(Number(part) * 1000)));
  }
  // Only an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`): Date.parse alone accepts junk such as "-1" or "7".
  if (!/^[A-Za-z]{3},\s/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date) || date <= now) return undefined;
  return date - now;
}

const settled = /* @__PURE__ */ Promise.resolve();

/** Whether `promise` was already rejected when handed over (its reaction runs before the settled marker's). */
export function isRejected(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise, settled]).then(
    () => false,
    () => true,
  );
}

/** Redirect statuses: the SDK never follows them (see RedirectError). */
export const REDIRECT_STATUSES = /* @__PURE__ */ new Set([300, 301, 302, 303, 307, 308]);

/** Scheme, host and path of a redirect target, resolved against the request URL; never its query. */
export function redirectTarget(location: string | null, requestUrl: string): string | undefined {
  if (!location) return undefined;
  try {
    const url = new URL(location, requestUrl);
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/** Thrown by {@link readText} when a body is larger than allowed; says what showed it. */
export class BodyTooLarge {
  readonly seen: string;
  constructor(seen: string) {
    this.seen = seen;
  }
}

/**
 * Reads a body to text, each chunk raced against `stopped`, at most `maxBytes` decoded bytes (a compression bomb
 * or endless body is canceled there). `stopped` ends the read itself: an abort through fetch's `Request` can be
 * lost (Node links its signal weakly; a GC during a stalled body drops the link), leaving the call pending.
 */
export async function readText(response: Response, stopped: Promise<never>, maxBytes: number): Promise<string> {
  const body = response.body as ReadableStream<Uint8Array> | null | undefined;
  const declared = Number(response.headers.get('content-length')); // none: Number(null) is 0
  // Content-Length counts the encoded bytes; a compressed body is no smaller once decoded, in practice.
  if (declared > maxBytes) {
    body?.cancel?.().catch(noop);
    throw new BodyTooLarge(`Content-Length ${declared}`);
  }
  if (body === null) return '';
  if (typeof body?.getReader !== 'function') {
    // A fetch replacement whose body is not a web stream (node-fetch 2 has a Node stream, some polyfills have
    // none): its text() is all there is to race, and its length is checked after the fact.
    const text = await Promise.race([response.text(), stopped]);
    if (text.length > maxBytes) throw new BodyTooLarge(`${text.length} characters`);
    return text;
  }
  const reader = body.getReader();
  // Decoded once at the end, as `response.text()` does: a text built chunk by chunk is copied again by JSON.parse.
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), stopped]);
      if (done) break;
      length += value.byteLength;
      if (length > maxBytes) throw new BodyTooLarge(`more than ${maxBytes} bytes read`);
      chunks.push(value);
    }
  } catch (error) {
    chunks.length = 0;
    reader.cancel().catch(noop);
    throw error;
  }
  let bytes = chunks[0];
  if (chunks.length > 1) {
    bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  return new TextDecoder().decode(bytes);
}

export function toPathKey(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key);
}

export function isFailureEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}
