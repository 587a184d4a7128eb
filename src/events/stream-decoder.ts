// Decoding one account-channel message, pure (tested and measured alone). It runs for every firehose message
// (300–400/s at idle): market data nobody asked for is dropped by a prefix check and a slice, before JSON.parse.
import { redact } from '../_internal/redact.ts';
import { StreamError } from './stream-error.ts';

const STREAM_PREFIX = '{"stream":"';
/** The account events the SDK knows (spec, Events); others become `unknown_event`. */
const KNOWN_ACCOUNT_EVENT = /^(order_(new|canceled|update)|position_update|full_snapshot)$/;
const textDecoder = /* @__PURE__ */ new TextDecoder();

/** Nothing to do (`undefined`), an unwanted market message, or the event to emit (`error` for a broken message). */
export type DecodedMessage = undefined | 'dropped' | { event: string; data: unknown };

/** A JSON object: not null, not an array. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Cut after redaction: a token straddling the cut would otherwise survive as an unrecognisable prefix.
const invalid = (message: string, text: string) => ({
  event: 'error',
  data: new StreamError('message', message, { raw: text.length > 2_000 ? `${redact(text).slice(0, 2_000)}…` : text }),
});

/** Decodes a raw WebSocket message; `wanted` holds the symbols whose market data the user asked for. */
export function decodeStreamMessage(raw: unknown, wanted: ReadonlySet<string>): DecodedMessage {
  let text: string;
  if (typeof raw === 'string') text = raw;
  else if (raw instanceof ArrayBuffer || ArrayBuffer.isView(raw)) text = textDecoder.decode(raw);
  else return undefined;
  if (text.startsWith(STREAM_PREFIX)) {
    const at = text.indexOf('@', 11); // 11: STREAM_PREFIX.length
    if (at > 0 && !wanted.has(text.slice(11, at))) return 'dropped';
  }
  if (text === 'pong') return undefined;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return invalid('A stream message is not JSON', text);
  }
  if (!isObject(message)) return invalid('A stream message is not an object', text);
  const stream = message['stream'];
  if (typeof stream === 'string') {
    const at = stream.indexOf('@');
    const symbol = at < 0 ? stream : stream.slice(0, at);
    // Reached only by non-compact JSON that the prefix check could not see through.
    if (!wanted.has(symbol)) return 'dropped';
    return { event: 'market', data: { symbol, channel: at < 0 ? '' : stream.slice(at + 1), data: message['data'] } };
  }
  const { event, data } = message;
  if (typeof event !== 'string') return invalid('A stream message has neither `event` nor `stream`', text);
  if (!KNOWN_ACCOUNT_EVENT.test(event)) return { event: 'unknown_event', data: { event, data } };
  // Events rule 1: a position update carries a string `symbol` and `quantity`; every account event, an object.
  const position = event === 'position_update';
  if (!isObject(data) || (position && (typeof data['symbol'] !== 'string' || typeof data['quantity'] !== 'string'))) {
    return invalid(
      position ? 'position_update without string symbol and quantity' : `${event} without an object in data`,
      text,
    );
  }
  return { event, data };
}
