import { copyOptions, readSharedOptions, type SharedOptionsInput } from './_internal/client-options.ts';
import type { ClientContext } from './_internal/context.ts';
import { Transport } from './_internal/transport.ts';

/**
 * Options of {@link createPublicClient}: what a client of the public market endpoints needs (no key, no signing,
 * no fleet). Each option means what it means on a `FuturesClient`.
 */
export type PublicClientOptions = SharedOptionsInput;

/**
 * A client for the public market endpoints only: no API key, no signing, no call journal, so a market-data page
 * carries none of them. Pass it to the functions of `futures-sdk/market`. Build one with {@link createPublicClient}.
 *
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
 * Builds a {@link PublicClient} for the public market endpoints (`futures-sdk/market`): the same `baseUrl`,
 * `fetch`, `fetchOptions`, `timeoutMs`, `retry`, `logger` and pacing options as a `FuturesClient`, and nothing
 * a key needs. The smallest bundle for a market-data page.
 *
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
