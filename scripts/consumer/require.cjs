const { FuturesClient, canonicalQuery, FuturesError } = require('futures-sdk');
const { createExchange } = require('futures-sdk/testing');
const ex = createExchange({ seed: 1 });
const { accountId } = ex.createAccount({ balances: { USDT: '1000' } });
const { apiKey, apiSecret } = ex.createApiKey(accountId, { permissions: ['TRADE'] });
const client = new FuturesClient({ baseUrl: ex.baseUrl, apiKey, apiSecret, fetch: ex.fetch });
client.account.positions().then((r) => {
  if (!Array.isArray(r.positions) || canonicalQuery({ b: 1, a: 2 }) !== 'a=2&b=1' || typeof FuturesError !== 'function') process.exit(1);
  console.log('require: ok');
});
