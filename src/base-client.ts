import { systemClock } from './_internal/clock.ts';
import type { ClientContext } from './_internal/context.ts';
import { isBrowserLike, isLoopbackHost } from './_internal/env.ts';
import { CallJournal } from './_internal/journal.ts';
import { Redactor } from './_internal/redact.ts';
import { isValidTimeoutMs, MAX_TIMEOUT_MS, type Signer, Transport } from './_internal/transport.ts';
import { readWireOptions } from './_internal/wire-options.ts';
import { ConfigurationError } from './errors/configuration-error.ts';
import type { Fleet } from './fleet/types.ts';
import type { FuturesClientOptions } from './options.ts';
import { keyedHmacSha256Hex } from './signer.ts';

/** Fleet objects already serving a client: a second client on the same lane would sign the same timestamps. */
const fleetsInUse = /* @__PURE__ */ new WeakSet<Fleet>();

function resolveFleet(options: FuturesClientOptions): Fleet | undefined {
  const { fleet } = options;
  if (fleet === undefined) return undefined;
  const budget = (fleet as Partial<Fleet> | null)?.budget;
  if (
    typeof fleet !== 'object' ||
    fleet === null ||
    typeof fleet.lane !== 'function' ||
    typeof fleet.close !== 'function' ||
    typeof budget !== 'object' ||
    budget === null ||
    typeof budget.tryTake !== 'function' ||
    typeof budget.settle !== 'function' ||
    typeof budget.pause !== 'function'
  ) {
    throw new ConfigurationError('fleet must be a Fleet: use staticFleet() or createRedisFleet()');
  }
  if (options.rateLimit === false) {
    throw new ConfigurationError('fleet needs rateLimit (a member must count its requests in the fleet budget)');
  }
  if (fleetsInUse.has(fleet)) {
    throw new ConfigurationError(
      'This fleet already serves another client: give each client its own fleet member (own lane)',
    );
  }
  return fleet;
}

/**
 * A plain copy of the options (and of `retry`), read once: a getter that throws or a revoked Proxy ends as a
 * `ConfigurationError`, like every other bad option, and later reads cannot change what was validated.
 */
function readOptions(options: FuturesClientOptions): FuturesClientOptions {
  try {
    const copy = { ...options };
    if (typeof copy.retry === 'object' && copy.retry !== null) copy.retry = { ...copy.retry };
    if (typeof copy.rateLimit === 'object' && copy.rateLimit !== null) copy.rateLimit = { ...copy.rateLimit };
    if (typeof copy.fetchOptions === 'object' && copy.fetchOptions !== null)
      copy.fetchOptions = { ...copy.fetchOptions };
    return copy;
  } catch {
    throw new ConfigurationError('FuturesClient options could not be read (a getter or Proxy threw)');
  }
}

function resolveBaseUrl(options: FuturesClientOptions): string {
  if (typeof options.baseUrl !== 'string' || options.baseUrl === '') {
    throw new ConfigurationError('baseUrl is required, e.g. "https://api.example.com"');
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    // Never echo a password of a `user:password@` part.
    const shown = options.baseUrl.replace(/\/\/[^/?#]*@/, '//***@');
    throw new ConfigurationError(`baseUrl is not a valid URL: ${JSON.stringify(shown)}`);
  }
  if (url.username || url.password) {
    // The SDK would silently drop them (only origin and path are used): say so instead of sending no credentials.
    throw new ConfigurationError('baseUrl must not contain credentials (user:password@); pass apiKey and apiSecret');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(`baseUrl must use https: (got ${url.protocol})`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !options.allowInsecureHttp) {
    throw new ConfigurationError(
      `baseUrl must use https: (signed requests carry your API key). http: is accepted only for loopback hosts, ` +
        `or with allowInsecureHttp: true. Got ${url.origin}`,
    );
  }
  if (url.search || url.hash) throw new ConfigurationError('baseUrl must not have a query string or a fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v2$/.test(path)) {
    throw new ConfigurationError(
      `baseUrl must not end with /v2: the SDK adds it. Use ${url.origin}${path.slice(0, -3)}`,
    );
  }
  return `${url.origin}${path}`;
}

function resolveSigner(options: FuturesClientOptions, redactor: Redactor): Signer | undefined {
  const { apiKey, apiSecret, signer } = options;
  if (apiSecret !== undefined && signer !== undefined) {
    throw new ConfigurationError('Pass either apiSecret or signer, not both');
  }
  if ((apiSecret !== undefined || signer !== undefined) && !apiKey) {
    throw new ConfigurationError('apiKey is required with apiSecret or signer');
  }
  if (apiSecret !== undefined) {
    if (typeof apiSecret !== 'string' || apiSecret === '')
      throw new ConfigurationError('apiSecret must be a non-empty string');
    if (isBrowserLike() && !options.dangerouslyAllowBrowser) {
      throw new ConfigurationError(
        'apiSecret in a browser exposes it to every script on the page. Use the signer option to sign elsewhere, ' +
          'or set dangerouslyAllowBrowser: true if you accept the risk.',
      );
    }
    redactor.addSecret(apiSecret);
    return keyedHmacSha256Hex(apiSecret);
  }
  if (signer !== undefined && typeof signer !== 'function') throw new ConfigurationError('signer must be a function');
  return signer;
}

/**
 * A client with no resources attached: options, guards, signing, pacing and retries, and nothing else. Pass it
 * to the standalone functions of `futures-sdk/orders`, `futures-sdk/futures`, `futures-sdk/account` and
 * `futures-sdk/market`; a bundler then keeps only the endpoints you import. Build one with
 * {@link createBaseClient}. {@link futures-sdk!FuturesClient | FuturesClient} is a `BaseClient` too, so the same functions accept it.
 *
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
    if (typeof given !== 'object' || given === null) {
      throw new ConfigurationError('A futures-sdk client needs an options object with at least baseUrl');
    }
    const options = readOptions(given);
    const baseUrl = resolveBaseUrl(options);
    // This client's credentials, scrubbed from its errors, log lines and events; released with the client.
    const redactor = new Redactor();
    const sign = resolveSigner(options, redactor);
    if (options.apiKey !== undefined) {
      if (typeof options.apiKey !== 'string' || options.apiKey === '')
        throw new ConfigurationError('apiKey must be a non-empty string');
      // It travels as a header: CR/LF would inject headers, and fetch refuses other controls, spaces at the ends
      // and non-Latin-1 text only at request time, with the key in its message and as a retryable network error.
      if (!/^[\x21-\x7e]+$/.test(options.apiKey)) {
        throw new ConfigurationError(
          `apiKey must be printable ASCII without spaces or line breaks (got ${options.apiKey.length} characters)`,
        );
      }
      redactor.addApiKey(options.apiKey);
    }
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new ConfigurationError('No fetch available: pass the fetch option');
    const timeoutMs = options.timeoutMs ?? 10_000;
    if (!isValidTimeoutMs(timeoutMs)) {
      throw new ConfigurationError(
        `timeoutMs must be an integer number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (got ${String(timeoutMs)})`,
      );
    }
    const retry =
      options.retry === false
        ? false
        : {
            limit: options.retry?.limit ?? 4,
            baseDelayMs: options.retry?.baseDelayMs ?? 500,
            maxDelayMs: options.retry?.maxDelayMs ?? 8_000,
            maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 60_000,
          };
    if (retry && (!Number.isInteger(retry.limit) || retry.limit < 0)) {
      throw new ConfigurationError('retry.limit must be a non-negative integer');
    }
    const wire = readWireOptions(options);
    const fleet = resolveFleet(options);
    this.options = options;
    this.ctx = {
      transport: new Transport({
        baseUrl,
        apiKey: options.apiKey,
        sign,
        timeoutMs,
        retry,
        // Called through a wrapper: browsers throw "Illegal invocation" when fetch runs with a `this` other than
        // the global object, which is what happens when a library calls it as a property of an options bag.
        fetch: (url, init) => fetchImpl(url, init),
        ...wire,
        clock: options.clock ?? systemClock,
        logger: options.logger,
        fleet,
        redactor,
      }),
      subAccountId: options.subAccountId,
      journal: new CallJournal(options.clock ?? systemClock),
    };
    if (fleet) fleetsInUse.add(fleet);
  }
}

/**
 * Builds a {@link BaseClient}: the same options, validation and guards as `new FuturesClient(options)`, with no
 * resources attached. For bundles that import only the standalone functions they call.
 *
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

/**
 * The context of a client, for the standalone functions. Read by property, not `instanceof`, so a client built by
 * one copy of the package (the CommonJS build) works with functions of another (the ESM build).
 */
export function contextOf(client: BaseClient): ClientContext {
  const ctx = (client as unknown as { ctx?: Partial<ClientContext> } | null | undefined)?.ctx;
  if (typeof ctx !== 'object' || ctx === null || typeof ctx.transport?.call !== 'function') {
    throw new ConfigurationError(
      'Expected a futures-sdk client (createBaseClient(options) or new FuturesClient(options)) as the first argument',
    );
  }
  return ctx as ClientContext;
}
