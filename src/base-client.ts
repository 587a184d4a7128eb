import { copyOptions, fail, readSharedOptions } from './_internal/client-options.ts';
import { systemClock } from './_internal/clock.ts';
import type { ClientContext } from './_internal/context.ts';
import { hasMethods } from './_internal/endpoint-call.ts';
import { isBrowserLike } from './_internal/env.ts';
import { CallJournal } from './_internal/journal.ts';
import { MemoryBudget } from './_internal/memory-budget.ts';
import type { RateLimitView } from './_internal/rate-limiter.ts';
import { Redactor } from './_internal/redact.ts';
import { createAttemptSigner } from './_internal/signing.ts';
import { type Signer, Transport } from './_internal/transport.ts';
import { hasSubtleCrypto, webCryptoSigner } from './_internal/web-crypto-signer.ts';
import type { Fleet } from './fleet/types.ts';
import type { FuturesClientOptions } from './options.ts';

/** Fleet objects already serving a client: a second client on the same lane would sign the same timestamps. */
const fleetsInUse = /* @__PURE__ */ new WeakSet<Fleet>();

function resolveFleet({ fleet, rateLimit }: FuturesClientOptions): Fleet | undefined {
  if (fleet === undefined) return undefined;
  if (!hasMethods(fleet, ['lane', 'close']) || !hasMethods(fleet.budget, ['tryTake', 'settle', 'pause'])) {
    fail('fleet must be a Fleet: use staticFleet() or createRedisFleet()');
  }
  if (rateLimit === false) fail('fleet needs rateLimit (a member counts its requests in the budget)');
  if (fleetsInUse.has(fleet)) fail('This fleet already serves another client: give each its own member');
  return fleet;
}

/** Checks the key, secret and signer, registers them with `redactor`, and returns how to sign (if at all). */
function resolveCredentials(options: FuturesClientOptions, redactor: Redactor): Signer | undefined {
  const { apiKey, apiSecret, signer } = options;
  if (apiSecret !== undefined && signer !== undefined) fail('Pass apiSecret or signer, not both');
  if ((apiSecret !== undefined || signer !== undefined) && !apiKey) fail('apiKey is required with apiSecret or signer');
  let sign = signer;
  if (apiSecret !== undefined) {
    if (!apiSecret || typeof apiSecret !== 'string') fail('apiSecret must be a non-empty string');
    if (isBrowserLike() && !options.dangerouslyAllowBrowser) {
      fail(
        'apiSecret in a browser is readable by any script on the page: use signer, or dangerouslyAllowBrowser: true',
      );
    }
    if (!hasSubtleCrypto()) {
      fail(
        'apiSecret needs Web Crypto (crypto.subtle; in a browser, a secure context): pass ' +
          'signer: (payload) => hmacSha256Hex(apiSecret, payload) instead',
      );
    }
    redactor.addSecret(apiSecret);
    sign = webCryptoSigner(apiSecret);
  } else if (signer !== undefined && typeof signer !== 'function') {
    fail('signer must be a function');
  }
  if (apiKey !== undefined) {
    // It travels as a header: CR/LF would inject headers, and fetch refuses other controls, spaces at the ends
    // and non-Latin-1 text only at request time, with the key in its message and as a retryable network error.
    if (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey)) {
      const got = typeof apiKey === 'string' ? `${apiKey.length} characters` : typeof apiKey;
      fail(`apiKey must be printable ASCII without spaces (got ${got})`);
    }
    redactor.addApiKey(apiKey);
  }
  return sign;
}

/**
 * A client with no resources attached (options, guards, signing, pacing, retries), for the standalone functions
 * of `futures-sdk/orders`, `/futures`, `/account` and `/market`: a bundler keeps only the endpoints you import.
 * Build one with {@link createBaseClient}; a {@link futures-sdk!FuturesClient | FuturesClient} is one too.
 * @example
 * ```ts
 * import { type BaseClient, createBaseClient } from 'futures-sdk';
 * import { ticker24hr } from 'futures-sdk/market';
 * const client: BaseClient = createBaseClient({ baseUrl: 'https://api.example.com' });
 * const { tickers } = await ticker24hr(client, { symbol: 'BTCUSDT' });
 * ```
 */
export class BaseClient {
  /** @internal */
  protected readonly ctx: ClientContext;
  /** @internal */
  protected readonly options: Readonly<FuturesClientOptions>;

  /** @internal Use {@link createBaseClient} or `new FuturesClient(options)`. */
  constructor(given: FuturesClientOptions) {
    const options = copyOptions(given);
    const shared = readSharedOptions(options);
    const redactor = new Redactor();
    const sign = resolveCredentials(options, redactor);
    const fleet = resolveFleet(options);
    this.options = options;
    this.ctx = {
      transport: new Transport({
        ...shared,
        apiKey: options.apiKey,
        signing: sign && createAttemptSigner({ sign, redactor, fleet, paceRunAhead: shared.clock === systemClock }),
        logger: options.logger,
        budget: fleet?.budget ?? new MemoryBudget(shared.clock),
        redactor,
      }),
      redactor,
      subAccountId: options.subAccountId,
      journal: new CallJournal(shared.clock),
    };
    if (fleet) fleetsInUse.add(fleet);
  }

  /**
   * Each rate-limit bucket (`orders`, `batch`, `close`, `default`): `limit` per `windowMs` (a `staticFleet` member's
   * share; the spec's with a Redis fleet), slots `used` in the window ending now (Redis fleet: this client's in
   * flight), calls `queued`, and `pausedUntil` during a 429 pause.
   * @example
   * ```ts
   * import { FuturesClient } from 'futures-sdk';
   * const client = new FuturesClient({ baseUrl: 'https://api.example.com', apiKey, apiSecret });
   * for (const b of client.rateLimits()) {
   *   console.log(`${b.bucket}: ${b.used}/${b.limit} per ${b.windowMs} ms, ${b.queued} waiting`);
   *   if (b.pausedUntil) console.warn(`${b.bucket} paused for ${b.pausedUntil - Date.now()} ms`);
   * }
   * ```
   */
  rateLimits(): RateLimitView[] {
    return this.ctx.transport.limiter.view();
  }
}

/**
 * Builds a {@link BaseClient}: the options and guards of `new FuturesClient(options)`, with no resources attached.
 * @throws {ConfigurationError} the same option errors as {@link futures-sdk!FuturesClient | FuturesClient}.
 * @example
 * ```ts
 * import { createBaseClient } from 'futures-sdk';
 * import { klines, ticker24hr } from 'futures-sdk/market';
 * const client = createBaseClient({ baseUrl: 'https://api.example.com' });
 * const { tickers } = await ticker24hr(client, { symbol: 'BTCUSDT' });
 * const candles = await klines(client, { symbol: 'BTCUSDT', interval: '1m', limit: 100 });
 * ```
 */
export function createBaseClient(options: FuturesClientOptions): BaseClient {
  return new BaseClient(options);
}

/** A client's context, read by property rather than `instanceof`: a CommonJS-built client works with ESM functions. */
export function contextOf(client: object): ClientContext {
  const ctx = (client as unknown as { ctx?: Partial<ClientContext> } | null | undefined)?.ctx;
  if (!hasMethods(ctx, []) || typeof ctx?.transport?.call !== 'function') {
    fail('The first argument must be a futures-sdk client (createBaseClient, createPublicClient or new FuturesClient)');
  }
  return ctx as ClientContext;
}
