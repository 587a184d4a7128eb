/**
 * The `undici` package's `fetch` as the client's `fetch`. The cast: undici declares its own `Request`/`Response`
 * types, which TypeScript does not accept as the DOM lib's, although the client calls it only as
 * `fetch(url: string, init)` and reads only what both have.
 */
import { FuturesClient, type FuturesClientOptions } from 'futures-sdk';
import { type Dispatcher, fetch as undiciFetchOriginal } from 'undici';

export const undiciFetch = undiciFetchOriginal as unknown as typeof fetch;

/** A client on `baseUrl` whose every request goes through `dispatcher` (undici's `fetch`, `fetchOptions`). */
export function clientThrough(
  baseUrl: string,
  dispatcher: Dispatcher,
  options: Partial<FuturesClientOptions> & { apiKey?: string; apiSecret?: string } = {},
): FuturesClient {
  return new FuturesClient({
    baseUrl,
    fetch: undiciFetch,
    fetchOptions: { dispatcher },
    timeoutMs: 10_000,
    ...options,
  } as FuturesClientOptions);
}
