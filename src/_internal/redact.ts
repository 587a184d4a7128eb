/**
 * Secret scrubbing for every string the SDK puts in an error, a log line or an event.
 *
 * Clients register their API secret and key here at construction, streams their session tokens; signatures,
 * JWTs and `token=` query values are also recognised by shape, so they are scrubbed even if a custom `fetch`
 * echoes a signed URL in its error. A registered value is found in the forms a server, a proxy or a library is
 * likely to echo it in: as is, percent-encoded (either case of hex digits), form-encoded and JSON-escaped.
 */

interface Rule {
  readonly pattern: RegExp;
  readonly replacement: string;
  /** Length of the raw value: longer values are replaced first, so one that contains another is not split. */
  readonly length: number;
}

const secretRules = new Map<string, Rule>();
const apiKeyRules = new Map<string, Rule>();
/** Stream tokens are refreshed on every reconnect: only the most recent ones are kept, so memory stays bounded. */
const tokenRules = new Map<string, Rule>();
const MAX_TOKENS = 64;
let ordered: Rule[] = [];

function reorder(): void {
  ordered = [...secretRules.values(), ...tokenRules.values(), ...apiKeyRules.values()].sort(
    (a, b) => b.length - a.length,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The regex source matching `value` as is, percent-encoded (any hex case), form-encoded or JSON-escaped. */
function ruleFor(value: string, replacement: string): Rule {
  const forms = new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)]);
  forms.add(JSON.stringify(value).slice(1, -1));
  const alternatives = [...forms]
    .sort((a, b) => b.length - a.length)
    .map((form) =>
      escapeRegExp(form).replace(
        /%([0-9A-F])([0-9A-F])/g,
        (_match, high: string, low: string) => `%[${high}${high.toLowerCase()}][${low}${low.toLowerCase()}]`,
      ),
    );
  let source = `(?:${alternatives.join('|')})`;
  // A very short value would also match inside ordinary words: only where it stands alone.
  if (value.length < 4) source = `(?<![A-Za-z0-9])${source}(?![A-Za-z0-9])`;
  return { pattern: new RegExp(source, 'g'), replacement, length: value.length };
}

/** Registers an API secret: it is replaced by `[REDACTED]` wherever it appears (even a short one, where it stands alone). */
export function registerSecret(secret: string): void {
  if (secret === '' || secretRules.has(secret)) return;
  secretRules.set(secret, ruleFor(secret, '[REDACTED]'));
  reorder();
}

/** Registers an API key: it is shortened to its last 4 characters wherever it appears. */
export function registerApiKey(apiKey: string): void {
  // A key of 4 characters or fewer is its own last 4 characters.
  if (apiKey.length <= 4 || apiKeyRules.has(apiKey)) return;
  apiKeyRules.set(apiKey, ruleFor(apiKey, maskApiKey(apiKey)));
  reorder();
}

/** Registers a session token (e.g. a stream's JWT, or an opaque token): redacted like a secret. */
export function registerToken(token: string): void {
  if (token === '') return;
  if (tokenRules.has(token)) {
    // Refresh its place: the most recently used tokens are the ones kept.
    const rule = tokenRules.get(token)!;
    tokenRules.delete(token);
    tokenRules.set(token, rule);
    return;
  }
  tokenRules.set(token, ruleFor(token, '[REDACTED]'));
  while (tokenRules.size > MAX_TOKENS) tokenRules.delete(tokenRules.keys().next().value!);
  reorder();
}

/** `…abcd`: the only form in which the SDK ever shows an API key. */
export function maskApiKey(apiKey: string): string {
  return `…${apiKey.slice(-4)}`;
}

const SIGNATURE_PARAM = /([?&](?:signature|token)=)[^&#\s"']+/gi;
/** The same inside a percent-encoded URL (`%3Fsignature%3D…%26`), e.g. a signed URL nested in a redirect. */
const ENCODED_SIGNATURE_PARAM = /((?:%3F|%26)(?:signature|token)%3D)(?:(?!%26)[^&#\s"'])+/gi;
// No leading \b: a JWT right after `%3D` (an encoded `=`) follows a word character.
const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
// A hex HMAC-SHA256 standing alone, or right after an encoded `=`; not part of a longer hex run or a `0x…` hash.
const HEX_DIGEST = /(?:(?<=%3D)|(?<![\w]))[0-9a-f]{64}(?![\w])/gi;

/** Returns `text` with secrets, API keys, session tokens, signatures and JWTs removed. */
export function redact(text: string): string {
  let out = text;
  // Registered values first: a shape rule matching inside one would leave the rest of it behind.
  // A function, not a string: a key whose last 4 characters hold `$&` must not re-insert the match.
  for (const rule of ordered) out = out.replace(rule.pattern, () => rule.replacement);
  return out
    .replace(SIGNATURE_PARAM, '$1[REDACTED]')
    .replace(ENCODED_SIGNATURE_PARAM, '$1[REDACTED]')
    .replace(JWT, '[REDACTED JWT]')
    .replace(HEX_DIGEST, '[REDACTED]');
}

/**
 * `value` with {@link redact} applied to every string inside it (object keys too), at most `depth` levels
 * deep; deeper parts, functions and cycles become placeholders so the result is always serialisable.
 */
export function redactDeep(value: unknown, depth = 8, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return `[${typeof value}]`;
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  if (depth <= 0) return '[Object]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth - 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[redact(key)] = redactDeep(item, depth - 1, seen);
    return out;
  } finally {
    seen.delete(value);
  }
}

/** The logger shape of the SDK (see `Logger` in transport.ts), restated here to keep this module dependency-free. */
interface LoggerLike {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** Wraps a logger so that every line and every string in its metadata is redacted; a throwing logger is ignored. */
export function redactingLogger<L extends LoggerLike>(logger: L): LoggerLike {
  const wrap =
    (level: keyof LoggerLike) =>
    (message: string, meta?: Record<string, unknown>): void => {
      try {
        const safeMeta = meta && (redactDeep(meta) as Record<string, unknown>);
        if (safeMeta) logger[level](redact(message), safeMeta);
        else logger[level](redact(message));
      } catch {
        // A logger must never break a request or a stream.
      }
    };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
