/**
 * The upstream of the proxy tests: the simulator's loopback server (`ex.listen()`) on a free 127.0.0.1 port, a
 * still BTCUSDT mark (so LIMIT buys below it rest), one funded account with a TRADE key, and a log of the
 * requests that reached it (method and path as the server parsed them).
 */
import { readFileSync } from 'node:fs';
import { createExchange, type Exchange } from 'futures-sdk/testing';

/** The self-signed fixture certificate (CN/SAN 127.0.0.1 and localhost), as a CA to trust. */
export const TEST_CA: Buffer = readFileSync(new URL('../fixtures/tls/self-signed.cert.pem', import.meta.url));
export const TEST_CA_PATH: string = new URL('../fixtures/tls/self-signed.cert.pem', import.meta.url).pathname;

export interface Upstream {
  ex: Exchange;
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  apiKey: string;
  apiSecret: string;
  accountId: string;
  /** `METHOD /path` of every request the simulator handled (from its own log, `ex.requests`), in order. */
  seen(): string[];
  close(): Promise<void>;
}

export async function startUpstream(): Promise<Upstream> {
  const ex = createExchange({ seed: 1, volatility: 0 });
  ex.setMarkPrice('BTCUSDT', '60000');
  const { url, close } = await ex.listen();
  const { accountId } = ex.createAccount({ balances: { USDT: '100000' } });
  const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
  return {
    ex,
    url,
    port: Number(new URL(url).port),
    apiKey,
    apiSecret,
    accountId,
    seen: () => ex.requests.map((entry) => `${entry.method} ${entry.path}`),
    close,
  };
}

/** A LIMIT buy far below the mark, so it rests. */
export const restingBuy = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '50000' } as const;
