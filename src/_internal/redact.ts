/**
 * Secret scrubbing for every string the SDK puts in an error, a log line or an event.
 *
 * Two layers:
 * - Shape rules, stateless and global ({@link redact}): `signature=`/`token=` query values (also percent-encoded),
 *   64-digit hex digests, and JWTs recognised by their structure (three base64url segments whose first decodes
 *   to a JSON object), whatever their first characters.
 * - A {@link Redactor} per client, holding that client's own credentials (API key, secret, its recent
 *   signatures, its stream tokens). Nothing is registered module-wide, so nothing outlives the client, and the
 *   cost of scrubbing does not grow with the number of clients in the process.
 *
 * A server, proxy or library may echo a credential in many spellings, or only part of it (`Invalid API key
 * ak_cy3yiuw51...`). The Redactor therefore decodes the text once into a character view — percent escapes,
 * `\u` and JSON escapes, HTML character references — with every decoded character mapped back to the source
 * span it came from, then removes every run of the view that contains a window of a credential: 5 characters
 * of the key or secret (the contract: no 5 consecutive characters of the key), 8 hex digits of a signature.
 */

/** The logger shape of the SDK (see `Logger` in transport.ts), restated here to keep this module dependency-free. */
interface LoggerLike {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** `…abcd`: the only form in which the SDK ever shows an API key. */
export function maskApiKey(apiKey: string): string {
  return `…${apiKey.slice(-4)}`;
}

const SIGNATURE_PARAM = /([?&](?:signature|token)=)[^&#\s"']+/gi;
/** The same inside a percent-encoded URL (`%3Fsignature%3D…%26`), e.g. a signed URL nested in a redirect. */
const ENCODED_SIGNATURE_PARAM = /((?:%3F|%26)(?:signature|token)%3D)(?:(?!%26)[^&#\s"'])+/gi;
// A hex HMAC-SHA256 standing alone, or right after an encoded `=`; not part of a longer hex run or a `0x…` hash.
const HEX_DIGEST = /(?:(?<=%3D)|(?<![\w]))[0-9a-f]{64}(?![\w])/gi;
/** Candidate JWTs: three base64url segments. Confirmed by decoding the first (see {@link isJwtHeader}). */
const JWT_CANDIDATE = /(?<![\w-])([A-Za-z0-9_-]{8,})\.([A-Za-z0-9_-]{4,})\.([A-Za-z0-9_-]*)(?![\w-])/g;

function base64UrlDecode(segment: string): string | undefined {
  try {
    const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
    return atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  } catch {
    return undefined;
  }
}

/** A JWT header is base64url of a JSON object: `{"alg":…}`, possibly with white space (`{ "alg"` → `eyAi…`). */
function isJwtHeader(segment: string): boolean {
  const decoded = base64UrlDecode(segment);
  return decoded !== undefined && /^\s*\{\s*"/.test(decoded);
}

/** Returns `text` with signature and token parameters, hex digests and JWTs removed (no registered values). */
export function redact(text: string): string {
  return text
    .replace(SIGNATURE_PARAM, '$1[REDACTED]')
    .replace(ENCODED_SIGNATURE_PARAM, '$1[REDACTED]')
    .replace(JWT_CANDIDATE, (match, header: string) => (isJwtHeader(header) ? '[REDACTED JWT]' : match))
    .replace(HEX_DIGEST, '[REDACTED]');
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/' };

/**
 * One step of decoding at `i`: the character a known escape spells and how many source characters it takes, or
 * the source character itself. Escapes nest (a JSON-escaped, percent-encoded key): {@link decodedView} decodes
 * repeatedly until nothing changes.
 */
function decodeAt(text: string, i: number): [char: string, length: number] {
  const c = text[i]!;
  if (c === '%' && /^%[0-9a-fA-F]{2}/.test(text.slice(i, i + 3))) {
    return [String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 3), 16)), 3];
  }
  if (c === '\\') {
    const next = text[i + 1];
    const unicode = /^\\u([0-9a-fA-F]{4})/.exec(text.slice(i, i + 6));
    if (unicode) return [String.fromCharCode(Number.parseInt(unicode[1]!, 16)), 6];
    const hex = /^\\x([0-9a-fA-F]{2})/.exec(text.slice(i, i + 4));
    if (hex) return [String.fromCharCode(Number.parseInt(hex[1]!, 16)), 4];
    if (next === '"' || next === '\\' || next === '/' || next === "'") return [next, 2];
  }
  if (c === '&') {
    const ref = /^&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/.exec(text.slice(i, i + 12));
    if (ref) {
      const body = ref[1]!;
      const point =
        body[0] !== '#'
          ? NAMED_ENTITIES[body.toLowerCase()]?.charCodeAt(0)
          : body[1] === 'x' || body[1] === 'X'
            ? Number.parseInt(body.slice(2), 16)
            : Number.parseInt(body.slice(1), 10);
      // Only one UTF-16 unit per escape (credentials are ASCII), so the view stays index-aligned.
      if (point !== undefined && point <= 0xffff) return [String.fromCharCode(point), ref[0].length];
    }
  }
  return [c, 1];
}

interface View {
  chars: string[];
  /** Source span [start, end) of each decoded character. */
  starts: number[];
  ends: number[];
}

function decodeOnce(text: string, starts: number[], ends: number[]): View {
  const view: View = { chars: [], starts: [], ends: [] };
  for (let i = 0; i < text.length; ) {
    const [char, length] = decodeAt(text, i);
    view.chars.push(char);
    view.starts.push(starts[i]!);
    view.ends.push(ends[i + length - 1]!);
    i += length;
  }
  return view;
}

/** Decodes until stable (at most 3 layers: e.g. a JSON-escaped, percent-encoded, HTML-escaped echo). */
function decodedView(text: string): View {
  // One entry per UTF-16 unit; decoding never yields more than one unit per escape (see decodeAt), so the
  // joined view of a layer indexes exactly like its entries.
  const units = text.split('');
  let view: View = { chars: units, starts: units.map((_, i) => i), ends: units.map((_, i) => i + 1) };
  for (let layer = 0; layer < 3; layer++) {
    const joined = view.chars.join('');
    if (!/[%\\&]/.test(joined)) break;
    const next = decodeOnce(joined, view.starts, view.ends);
    if (next.chars.length === view.chars.length) break;
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

/**
 * The shape rules alone, for a client that holds no credential (a public client): signature and token
 * parameters, hex digests and JWTs are still removed from whatever a server echoes.
 */
export const shapeScrubber: Scrubber = {
  text: (text) => redact(text),
  deep: (value) => redactDeep(value),
  logger: (logger) => redactingLogger(logger),
};

interface Registered {
  value: string;
  /** Every window of this many consecutive characters counts as a leak. */
  window: number;
  /** What replaces a leaked run. */
  mask: (run: string) => string;
}

const RECENT_LIMIT = 64;

/** A run long enough to hold a base64-encoded credential window; most text has none, and skips the search. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{11,}/;
const BASE64_WINDOW = 8;

/**
 * The base64 characters (standard and URL alphabet) that depend only on `value`'s bytes, for each of the three
 * byte alignments `value` can have inside a longer encoded text. Credentials are ASCII, one byte a character.
 */
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
    const first = Math.ceil((8 * align) / 6);
    const last = Math.floor((8 * (align + value.length)) / 6); // exclusive
    const core = encoded.slice(first, last);
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/**
 * One client's credentials and how to scrub them. Owned by the client (and shared with its stream and watcher),
 * released with it.
 */
export class Redactor implements Scrubber {
  private readonly values: Registered[] = [];
  /** Signatures and stream tokens are refreshed all the time: only the most recent are kept. */
  private readonly recent: Registered[] = [];

  /** The API key: any 5 consecutive characters of it are removed; the whole key shows as `…abcd`. */
  addApiKey(apiKey: string): void {
    if (apiKey.length <= 4) return; // a key of 4 characters or fewer is its own last 4
    this.values.push({
      value: apiKey,
      window: 5,
      mask: (run) => (run === apiKey ? maskApiKey(apiKey) : '[REDACTED]'),
    });
  }

  /** The API secret: any 5 consecutive characters of it are removed (a shorter secret, wherever it stands alone). */
  addSecret(secret: string): void {
    if (secret === '') return;
    this.values.push({ value: secret, window: Math.min(5, secret.length), mask: () => '[REDACTED]' });
  }

  /** A stream token (JWT or opaque): any 5 consecutive characters of it are removed. */
  addToken(token: string): void {
    this.addRecent({ value: token, window: Math.min(5, token.length), mask: () => '[REDACTED]' });
  }

  /** A signature this client sent: any 8 consecutive hex digits of it are removed (a truncated echo too). */
  addSignature(signature: string): void {
    // Unique per request (timestamps never repeat), so no search for an older copy: this runs on every signed call.
    this.recent.push({ value: signature.toLowerCase(), window: 8, mask: () => '[REDACTED]' });
    if (this.recent.length > RECENT_LIMIT) this.recent.shift();
  }

  private addRecent(entry: Registered): void {
    if (entry.value === '') return;
    const at = this.recent.findIndex((r) => r.value === entry.value);
    if (at >= 0) this.recent.splice(at, 1);
    this.recent.push(entry);
    if (this.recent.length > RECENT_LIMIT) this.recent.shift();
  }

  /** window size → every window of that size of a credential (built per scrub: a new signature each call). */
  private windowSets(): Map<number, Set<string>> {
    const sets = new Map<number, Set<string>>();
    for (const { value, window } of [...this.values, ...this.recent]) {
      const set = sets.get(window) ?? new Set<string>();
      sets.set(window, set);
      for (let i = 0; i + window <= value.length; i++) set.add(value.slice(i, i + window));
    }
    return sets;
  }

  /** `text` with this client's credentials removed (in any spelling, in part) and the shape rules applied. */
  text(text: string): string {
    if (this.values.length === 0 && this.recent.length === 0) return redact(text);
    const scrubbed = this.scrubRegistered(text);
    return redact(BASE64_RUN.test(scrubbed) ? this.scrubBase64(scrubbed) : scrubbed);
  }

  /**
   * A server may echo the request base64-encoded (a debug dump, a support blob). Base64 of any text containing a
   * credential contains, at one of three alignments, the characters that encode only the credential's bytes: every
   * run of 8 of those (6 bytes), in the standard and the URL alphabet, is removed.
   */
  private scrubBase64(text: string): string {
    const windows = new Set<string>();
    for (const { value } of [...this.values, ...this.recent]) {
      for (const core of base64Cores(value)) {
        for (let i = 0; i + BASE64_WINDOW <= core.length; i++) windows.add(core.slice(i, i + BASE64_WINDOW));
      }
    }
    const marked = new Uint8Array(text.length);
    let any = false;
    for (let i = 0; i + BASE64_WINDOW <= text.length; i++) {
      if (windows.has(text.slice(i, i + BASE64_WINDOW))) {
        marked.fill(1, i, i + BASE64_WINDOW);
        any = true;
      }
    }
    if (!any) return text;
    let out = '';
    for (let i = 0; i < text.length; ) {
      if (!marked[i]) {
        out += text[i++];
        continue;
      }
      while (i < text.length && marked[i]) i++;
      out += '[REDACTED]';
    }
    return out;
  }

  private scrubRegistered(text: string): string {
    const sets = this.windowSets();
    const view = decodedView(text);
    const n = view.chars.length;
    const marked = new Uint8Array(n);
    let any = false;
    for (const [size, set] of sets) {
      if (n < size) continue;
      // Signatures are hex: compare case-insensitively (servers echo hex in either case).
      const fold = size === 8;
      for (let i = 0; i + size <= n; i++) {
        let piece = '';
        for (let k = 0; k < size; k++) piece += view.chars[i + k];
        if (set.has(fold ? piece.toLowerCase() : piece)) {
          marked.fill(1, i, i + size);
          any = true;
        }
      }
    }
    if (!any) return text;
    let out = '';
    let cursor = 0;
    for (let i = 0; i < n; ) {
      if (!marked[i]) {
        i++;
        continue;
      }
      let j = i;
      while (j < n && marked[j]) j++;
      const start = view.starts[i]!;
      const end = view.ends[j - 1]!;
      const run = view.chars.slice(i, j).join('');
      out += text.slice(cursor, start) + this.maskFor(run);
      cursor = end;
      i = j;
    }
    return out + text.slice(cursor);
  }

  private maskFor(run: string): string {
    for (const entry of this.values) if (run === entry.value) return entry.mask(run);
    return '[REDACTED]';
  }

  /** `value` with {@link Redactor.text} applied to every string inside it; see {@link redactDeep}. */
  deep(value: unknown): unknown {
    return redactDeep(value, (text) => this.text(text));
  }

  /** Wraps a logger so that every line and every string in its metadata is scrubbed; a throwing logger is ignored. */
  logger(logger: LoggerLike): LoggerLike {
    return redactingLogger(logger, this);
  }
}

/**
 * `value` with `scrub` (default: the shape rules) applied to every string inside it (object keys too), at most
 * `depth` levels deep; deeper parts, functions and cycles become placeholders so the result is always
 * serialisable.
 */
export function redactDeep(
  value: unknown,
  scrub: (text: string) => string = redact,
  depth = 8,
  seen: WeakSet<object> = new WeakSet(),
): unknown {
  if (typeof value === 'string') return scrub(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return `[${typeof value}]`;
  if (typeof value !== 'object' || value === null) return value;
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
export function redactingLogger(logger: LoggerLike, redactor?: Redactor): LoggerLike {
  const scrub = redactor ? (text: string) => redactor.text(text) : redact;
  const wrap =
    (level: keyof LoggerLike) =>
    (message: string, meta?: Record<string, unknown>): void => {
      try {
        const safeMeta = meta && (redactDeep(meta, scrub) as Record<string, unknown>);
        if (safeMeta) logger[level](scrub(message), safeMeta);
        else logger[level](scrub(message));
      } catch {
        // A logger must never break a request or a stream.
      }
    };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
