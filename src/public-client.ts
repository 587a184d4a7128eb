import { copyOptions, readSharedOptions, type SharedOptionsInput } from './_internal/client-options.ts';
import type { ClientContext } from './_internal/context.ts';
import { Transport } from './_internal/transport.ts';

/** Options of {@link createPublicClient}: those of a `FuturesClient` that need no key, signing or fleet. */
export type PublicClientOptions = SharedOptionsInput;

/**
 * A client for the public market endpoints only: no API key, no signing, no call journal, so a market-data page
 * carries none of them. Pass it to the functions of `futures-sdk/market`. Build one with {@link createPublicClient}.
 * @example
 * ```ts
 * import { createPublicClient, type PublicClient } from 'futures-sdk';
 * import { klines } from 'futures-sdk/market';
 * const market: PublicClient = createPublicClient({ baseUrl: 'https://api.example.com' });
 * const candles = await klines(market, { symbol: 'ETHUSDT', interval: '5m', limit: 50 });
 * ```
 */
export class PublicClient {
  /** @internal */
  protected readonly ctx: ClientContext;

  /** @internal Use {@link createPublicClient}. */
  constructor(given: PublicClientOptions) {
    const options = copyOptions(given);
    const shared = readSharedOptions(options);
    this.ctx = {
      transport: new Transport({ ...shared, apiKey: undefined, logger: options.logger }),
      subAccountId: undefined,
    };
  }
}

/**
 * Builds a {@link PublicClient} for `futures-sdk/market` (a `FuturesClient`'s options minus a key's): the smallest
 * bundle for a market-data page.
 * @throws {ConfigurationError} for the same option errors as a `FuturesClient`.
 * @example
 * ```ts
 * import { createPublicClient } from 'futures-sdk';
 * import { ticker24hr } from 'futures-sdk/market';
 * const market = createPublicClient({ baseUrl: 'https://api.example.com' });
 * const { tickers } = await ticker24hr(market, { symbol: 'BTCUSDT' });
 * ```
 */
export function createPublicClient(options: PublicClientOptions): PublicClient {
  return new PublicClient(options);
}
