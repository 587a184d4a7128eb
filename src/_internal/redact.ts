// Secret scrubbing for every error, log line and event: shape rules ({@link redact}: signature/token parameters,
// hex digests, JWTs) and a per-client {@link Redactor} (per client, so nothing outlives it). A credential may be
// echoed in any spelling or in part (`Invalid API key ak_cy3yiuw51...`): the Redactor decodes the text (percent,
// `\u`/JSON escapes, HTML references) into a view mapped back to source spans, and removes every run holding a
// window of a credential: 5 characters of the key or secret, 8 hex digits of a signature.

/** The SDK's `Logger`, restated to keep this module dependency-free. */
type LoggerLike = Record<(typeof LEVELS)[number], (message: string, meta?: Record<string, unknown>) => void>;
const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

const REDACTED = '[REDACTED]';

const SIGNATURE_PARAM = /([?&](?:signature|token)=)[^&#\s"']+/gi;
/** The same inside a percent-encoded URL (`%3Fsignature%3D…%26`), e.g. a signed URL nested in a redirect. */
const ENCODED_SIGNATURE_PARAM = /((?:%3F|%26)(?:signature|token)%3D)(?:(?!%26)[^&#\s"'])+/gi;
// A hex HMAC-SHA256 standing alone, or right after an encoded `=`; not part of a longer hex run or a `0x…` hash.
const HEX_DIGEST = /(?:(?<=%3D)|(?<!\w))[0-9a-f]{64}(?!\w)/gi;
/** Candidate JWTs: three base64url segments, confirmed when the first decodes to a JSON object (`{"alg"…`). */
const JWT_CANDIDATE = /(?<![\w-])([\w-]{8,})\.[\w-]{4,}\.[\w-]*(?![\w-])/g;

function isJwtHeader(segment: string): boolean {
  try {
    // atob decodes unpadded base64 (WHATWG forgiving-base64), as JWT segments are.
    return /^\s*\{\s*"/.test(atob(segment.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return false;
  }
}

/** Returns `text` with signature and token parameters, hex digests and JWTs removed (no registered values). */
export function redact(text: string): string {
  return text
    .replace(SIGNATURE_PARAM, `$1${REDACTED}`)
    .replace(ENCODED_SIGNATURE_PARAM, `$1${REDACTED}`)
    .replace(JWT_CANDIDATE, (match, header: string) => (isJwtHeader(header) ? '[REDACTED JWT]' : match))
    .replace(HEX_DIGEST, REDACTED);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/' };

/** A percent escape, `\u`/`\x` escape, JSON escape of a quote, `\` or `/`, or an HTML character reference. */
const ESCAPE =
  /%([\dA-Fa-f]{2})|\\u([\dA-Fa-f]{4})|\\x([\dA-Fa-f]{2})|\\(["\\/'])|&(?:#[xX]([\dA-Fa-f]{1,6})|#(\d{1,7})|([A-Za-z]{2,6}));/y;

/** One step of decoding at `i`: the character an escape spells and its source length, or the character itself. */
function decodeAt(text: string, i: number): [char: string, length: number] {
  ESCAPE.lastIndex = i;
  const match = '%\\&'.includes(text[i]!) && ESCAPE.exec(text);
  if (match) {
    const [spelled, percent, u, x, quoted, hexRef, decimalRef, name] = match;
    const point = quoted
      ? quoted.charCodeAt(0)
      : decimalRef
        ? parseInt(decimalRef, 10)
        : name
          ? NAMED_ENTITIES[name.toLowerCase()]?.charCodeAt(0)
          : parseInt((percent ?? u ?? x ?? hexRef)!, 16);
    // Only one UTF-16 unit per escape (credentials are ASCII), so the view stays index-aligned.
    if (point !== undefined && point <= 0xffff) return [String.fromCharCode(point), spelled.length];
  }
  return [text[i]!, 1];
}

/** The decoded text, and the source span [start, end) of each of its UTF-16 units. */
type View = [decoded: string, starts: number[], ends: number[]];

/** `text` decoded until stable, at most `layers` times (3: e.g. a JSON-escaped, percent-encoded, HTML-escaped echo). */
function decodedView(text: string, layers: number): View {
  const units = [...Array(text.length).keys()];
  let view: View = [text, units, units.map((i) => i + 1)];
  for (let layer = 0; layer < layers && /[%\\&]/.test(view[0]); layer++) {
    const [current, starts, ends] = view;
    const next: View = ['', [], []];
    for (let i = 0; i < current.length; ) {
      // Never more than one unit per escape (see decodeAt), so the decoded text indexes like its spans.
      const [char, length] = decodeAt(current, i);
      next[0] += char;
      next[1].push(starts[i]!);
      next[2].push(ends[i + length - 1]!);
      i += length;
    }
    if (next[0].length === current.length) break;
    view = next;
  }
  return view;
}

/** What the transport scrubs errors and log lines with: a client's {@link Redactor}, or the shape rules alone. */
export interface Scrubber {
  text(text: string): string;
  deep(value: unknown): unknown;
  logger(logger: LoggerLike): LoggerLike;
}

/** A credential: any `window` consecutive characters of it are a leak; the API key echoed whole shows as `…abcd`. */
type Registered = [value: string, window: number, isApiKey?: true];

const RECENT_LIMIT = 64;

/** A run long enough to hold a base64-encoded credential window; most text has none, and skips the search. */
const BASE64_RUN = /[\w+/-]{11,}/;

/** The base64 characters (both alphabets) that depend only on `value`'s bytes, at each of the 3 byte alignments. */
function base64Cores(value: string): string[] {
  const cores: string[] = [];
  for (let align = 0; align < 3; align++) {
    let encoded: string;
    try {
      encoded = btoa('\0'.repeat(align) + value);
    } catch {
      return cores; // not Latin-1: no credential the SDK registers
    }
    // Character k carries bits [6k, 6k + 6); only those inside the value's bits [8·align, 8·(align + length)).
    const core = encoded.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + value.length)) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** window size → every window of that size of each credential. */
function windowSets(credentials: Registered[]): Map<number, Set<string>> {
  const sets = new Map<number, Set<string>>();
  for (const [value, window] of credentials) {
    const set = sets.get(window) ?? new Set<string>();
    sets.set(window, set);
    for (let i = 0; i + window <= value.length; i++) set.add(value.slice(i, i + window));
  }
  return sets;
}

/** One client's credentials and how to scrub them; owned by the client (shared with its stream and watcher). */
export class Redactor implements Scrubber {
  #values: Registered[] = [];
  /** Signatures and stream tokens are refreshed all the time: only the most recent are kept. */
  #recent: Registered[] = [];

  /** The API key: any 5 consecutive characters of it are removed; the whole key shows as `…abcd`. */
  addApiKey(apiKey: string): void {
    if (apiKey.length <= 4) return; // a key of 4 characters or fewer is its own last 4
    this.#values.push([apiKey, 5, true]);
  }

  /** The API secret: any 5 consecutive characters of it are removed (a shorter secret, wherever it stands alone). */
  addSecret(secret: string): void {
    if (secret !== '') this.#values.push([secret, Math.min(5, secret.length)]);
  }

  /** A stream token (JWT or opaque): any 5 consecutive characters of it are removed. */
  addToken(token: string): void {
    if (token === '') return;
    this.#recent = this.#recent.filter(([value]) => value !== token);
    this.#addRecent([token, Math.min(5, token.length)]);
  }

  /** A signature this client sent: any 8 consecutive hex digits of it are removed (a truncated echo too). */
  addSignature(signature: string): void {
    // Unique per request (timestamps never repeat), so no search for an older copy: this runs on every signed call.
    this.#addRecent([signature.toLowerCase(), 8]);
  }

  #addRecent(entry: Registered): void {
    this.#recent.push(entry);
    if (this.#recent.length > RECENT_LIMIT) this.#recent.shift();
  }

  /** `text` with this client's credentials removed (in any spelling, in part) and the shape rules applied. */
  text(text: string): string {
    const credentials = [...this.#values, ...this.#recent];
    if (credentials.length === 0) return redact(text);
    const scrubbed = this.#scrub(text, credentials, true);
    if (!BASE64_RUN.test(scrubbed)) return redact(scrubbed);
    // A server may echo the request base64-encoded (a debug dump): any run of 8 characters that encode only a
    // credential's bytes (at one of three alignments, in either alphabet) is removed.
    const cores = credentials.flatMap(([value]) => base64Cores(value).map((core): Registered => [core, 8]));
    return redact(this.#scrub(scrubbed, cores, false));
  }

  /**
   * `text` with every run holding a window of `credentials` replaced. `registered` ones are searched in the decoded
   * text (3 layers); signatures (the only 8-character windows) match in either case, and the whole API key shows as
   * `…abcd`. Base64 cores (not `registered`) are searched in the text as it is.
   */
  #scrub(text: string, credentials: Registered[], registered: boolean): string {
    const [decoded, starts, ends] = decodedView(text, registered ? 3 : 0);
    const n = decoded.length;
    const marked = new Uint8Array(n);
    for (const [size, set] of windowSets(credentials)) {
      for (let i = 0; i + size <= n; i++) {
        const piece = decoded.slice(i, i + size);
        if (set.has(registered && size === 8 ? piece.toLowerCase() : piece)) marked.fill(1, i, i + size);
      }
    }
    let out = '';
    let cursor = 0;
    for (let i = 0; i < n; i++) {
      if (!marked[i]) continue;
      let j = i;
      while (j < n && marked[j]) j++;
      const run = decoded.slice(i, j);
      const isApiKey = registered && this.#values.find(([value]) => value === run)?.[2];
      out += text.slice(cursor, starts[i]) + (isApiKey ? `…${run.slice(-4)}` : REDACTED);
      cursor = ends[j - 1]!;
      i = j;
    }
    return out + text.slice(cursor);
  }

  deep(value: unknown): unknown {
    return redactDeep(value, (text) => this.text(text));
  }

  logger(logger: LoggerLike): LoggerLike {
    return redactingLogger(logger, (text) => this.text(text));
  }
}

/** The shape rules alone, for a public client: not a Redactor, so a market-data page ships no credential search. */
export const shapeScrubber: Scrubber = {
  text: redact,
  deep: (value) => redactDeep(value, redact),
  logger: (logger) => redactingLogger(logger, redact),
};

/** `value` with every string (keys too) scrubbed, `depth` levels deep; the rest become serialisable placeholders. */
function redactDeep(
  value: unknown,
  scrub: (text: string) => string,
  depth = 8,
  seen: WeakSet<object> = new WeakSet(),
): unknown {
  const type = typeof value;
  if (type === 'string') return scrub(value as string);
  if (type === 'bigint') return String(value);
  if (type === 'function' || type === 'symbol') return `[${type}]`;
  if (type !== 'object' || !value) return value;
  if (seen.has(value)) return '[Circular]';
  if (depth <= 0) return '[Object]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactDeep(item, scrub, depth - 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[scrub(key)] = redactDeep(item, scrub, depth - 1, seen);
    return out;
  } catch {
    return '[unreadable]';
  } finally {
    seen.delete(value);
  }
}

/** Wraps a logger so that every line and every string in its metadata is scrubbed; a throwing logger is ignored. */
function redactingLogger(logger: LoggerLike, scrub: (text: string) => string): LoggerLike {
  const wrapped = {} as LoggerLike;
  for (const level of LEVELS) {
    wrapped[level] = (message, meta) => {
      try {
        const safeMeta = meta && (redactDeep(meta, scrub) as Record<string, unknown>);
        if (safeMeta) logger[level](scrub(message), safeMeta);
        else logger[level](scrub(message));
      } catch {
        // A logger must never break a request or a stream.
      }
    };
  }
  return wrapped;
}
