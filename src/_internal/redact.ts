/**
 * Secret scrubbing for every string the SDK puts in an error, a log line or an event.
 *
 * Clients register their API secret and key here at construction; signatures, JWTs and `token=` query values
 * are recognised by shape, so they are scrubbed even if a custom `fetch` echoes a signed URL in its error.
 */
const secrets = new Set<string>();
const apiKeys = new Set<string>();

/** Registers an API secret: it is replaced by `[REDACTED]` wherever it appears. */
export function registerSecret(secret: string): void {
  if (secret.length >= 4) secrets.add(secret);
}

/** Registers an API key: it is shortened to its last 4 characters wherever it appears. */
export function registerApiKey(apiKey: string): void {
  if (apiKey.length >= 4) apiKeys.add(apiKey);
}

/** `…abcd`: the only form in which the SDK ever shows an API key. */
export function maskApiKey(apiKey: string): string {
  return `…${apiKey.slice(-4)}`;
}

const SIGNATURE_PARAM = /([?&](?:signature|token)=)[^&#\s"']+/gi;
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const HEX_DIGEST = /\b[0-9a-f]{64}\b/gi;

/** Returns `text` with secrets, API keys, signatures and JWTs removed. */
export function redact(text: string): string {
  let out = text.replace(SIGNATURE_PARAM, '$1[REDACTED]').replace(JWT, '[REDACTED JWT]');
  out = out.replace(HEX_DIGEST, '[REDACTED]');
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
  for (const key of apiKeys) if (out.includes(key)) out = out.split(key).join(maskApiKey(key));
  return out;
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
