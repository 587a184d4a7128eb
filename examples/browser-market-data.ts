/**
 * Market data for a browser dashboard: public endpoints only. No API key and no secret — never ship a secret to
 * a page (the client refuses `apiSecret` in a browser unless told otherwise; use `signer` for signed calls).
 *
 * `loadMarket` uses nothing Node-specific and works with any `fetch`. In a page:
 *   const market = await loadMarket('https://api.example.com', 'BTCUSDT', window.fetch.bind(window), signal);
 * Here it runs in Node against FUTURES_BASE_URL, or against the simulated exchange's `fetch`.
 *
 * Run: `npm run build && npx node examples/browser-market-data.ts`
 */
import { FuturesClient, FuturesError, parseKline } from 'futures-sdk';
import { failed, publicEndpoint } from './_setup.ts';

async function loadMarket(baseUrl: string, symbol: string, fetch: typeof globalThis.fetch, signal?: AbortSignal) {
  const client = new FuturesClient({ baseUrl, fetch });
  // Every call takes { signal }: abort them all when the component unmounts or the user switches symbol.
  const options = signal ? { signal } : {};
  const [status, tickers, book, trades, candles, funding] = await Promise.all([
    client.market.platformStatus(options),
    client.market.ticker24hr({ symbol }, options),
    client.market.depth({ symbol, limit: 5 }, options),
    client.market.trades({ symbol, limit: 5 }, options),
    client.market.klines({ symbol, interval: '1h', limit: 24 }, options),
    client.market.fundingRate({ symbol }, options),
  ]);
  return {
    tradingOpen: status.features.trading,
    ticker: tickers.tickers[0],
    bids: book.bids,
    asks: book.asks,
    trades: trades.trades,
    // Candles arrive as 12-element arrays; parseKline names the fields.
    candles: candles.data.map(parseKline),
    // null until the server has cached a rate: show "n/a", do not treat it as 0.
    fundingRate: funding.fundingRate,
  };
}

async function main(): Promise<void> {
  const { baseUrl, fetch } = await publicEndpoint();
  const symbol = process.env.FUTURES_SYMBOL || 'BTCUSDT';
  const controller = new AbortController();
  try {
    const market = await loadMarket(baseUrl, symbol, fetch, controller.signal);
    console.log(`Trading open: ${market.tradingOpen}`);
    if (market.ticker) {
      const { lastPrice, priceChangePercent, highPrice, lowPrice } = market.ticker;
      console.log(`${symbol} ${lastPrice} (${priceChangePercent}% 24h, range ${lowPrice} - ${highPrice})`);
    }
    console.log('Bids:', market.bids.map(([price, qty]) => `${qty} @ ${price}`).join(', '));
    console.log('Asks:', market.asks.map(([price, qty]) => `${qty} @ ${price}`).join(', '));
    for (const trade of market.trades) {
      console.log(
        `Trade ${trade.id}: ${trade.isBuyerMaker ? 'sell' : 'buy'} ${trade.qty} @ ${trade.price} at ${new Date(trade.time).toISOString()}`,
      );
    }
    const first = market.candles[0];
    const latest = market.candles.at(-1);
    if (first && latest) {
      console.log(`${market.candles.length} hourly candles: open ${first.open} -> close ${latest.close}`);
    }
    console.log(`Funding rate: ${market.fundingRate ?? 'n/a (not cached yet)'}`);
  } catch (error) {
    // One error type for everything: network, timeout, HTTP status, malformed response.
    if (error instanceof FuturesError) console.error(`Market data unavailable: ${error.message}`);
    throw error;
  }
}

main().catch(failed);
