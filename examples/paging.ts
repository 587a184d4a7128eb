/**
 * Paging: `orders.listAll` and `account.transfersAll` are async iterators that fetch page after page (200 orders
 * or 100 transfers at a time) only as you consume them. Break out of the loop to stop fetching.
 *
 * On the simulator the example first creates 230 orders and 150 deposits, so both walks span several pages.
 *
 * Run: `npm run build && npx node examples/paging.ts`
 */
import type { CreateOrderParameters } from 'futures-sdk';
import { connect, failed, shiftPrice } from './_setup.ts';

/** Stop after this many rows: a real account can have a long history, and every page is a request. */
const MAX_ROWS = 1_000;

async function main(): Promise<void> {
  const { client, ex, accountId, symbol, tickSize } = await connect();

  if (ex && accountId) {
    // 46 batches of 5 resting bids (the batch endpoint allows 100 calls a minute, orders.create 300).
    const last = ex.markPrice(symbol);
    for (let batch = 0; batch < 46; batch++) {
      const items: CreateOrderParameters[] = [1, 2, 3, 4, 5].map((i) => ({
        symbol,
        side: 'BUY',
        type: 'LIMIT',
        quantity: '0.001',
        price: shiftPrice(last, -5 - (batch * 5 + i) / 100, tickSize),
      }));
      await client.orders.createBatch(items);
    }
    // 150 deposits; they settle (PENDING -> SUCCESS) after 2 s of server time, which the simulator can skip.
    for (let i = 1; i <= 150; i++) ex.deposit(accountId, 'USDT', String(i));
    ex.advance(2_000);
    console.log('Simulator: created 230 orders and 150 deposits');
  }

  let orders = 0;
  const byStatus = new Map<string, number>();
  for await (const order of client.orders.listAll({ symbol })) {
    byStatus.set(order.status, (byStatus.get(order.status) ?? 0) + 1);
    if (++orders >= MAX_ROWS) break;
  }
  console.log(`orders.listAll: ${orders} orders on ${symbol}`, Object.fromEntries(byStatus));

  let transfers = 0;
  let newest: string | undefined;
  for await (const transfer of client.account.transfersAll({ type: 'deposit' })) {
    newest ??= `${transfer.amount} ${transfer.asset} (${transfer.status}, ${transfer.createdAt})`;
    if (++transfers >= MAX_ROWS) break;
  }
  console.log(`account.transfersAll: ${transfers} deposits; first one listed: ${newest ?? 'none'}`);

  if (ex) {
    // The simulator logs every request it served: here, how many pages each walk fetched.
    const pages = (path: string) => ex.requests.filter((r) => r.method === 'GET' && r.path === path).length;
    console.log(
      `Pages fetched: GET /v2/orders x${pages('/v2/orders')}, GET /v2/me/transfers x${pages('/v2/me/transfers')}`,
    );
    await client.orders.cancelAll({ symbol });
  }
}

main().catch(failed);
