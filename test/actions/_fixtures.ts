/** Spec-shaped response bodies for wire tests. */

export const order = (over: Record<string, unknown> = {}) => ({
  id: 'ord-1',
  accountId: 'acc-1',
  venue: 'VENUE',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  quantity: '0.01',
  price: '60000',
  clientOrderId: '6f1c1c7e-2a7b-4b55-9a55-6f4fd8a3b0a1',
  venueOrderId: '123456',
  status: 'NEW',
  source: 'API',
  createdAt: '2026-04-26T10:00:00.000Z',
  updatedAt: '2026-04-26T10:00:00.000Z',
  ...over,
});

export const position = (over: Record<string, unknown> = {}) => ({
  id: 'pos-1',
  accountId: 'acc-1',
  venuePositionId: 'vp-1',
  symbol: 'BTCUSDT',
  quantity: '0.01',
  avgEntryPrice: '60000',
  markPrice: '60100',
  liquidationPrice: '30000',
  unrealizedPnl: '1',
  realizedPnl: '0',
  fundingFee: '0',
  initialMargin: '60',
  maintenanceMargin: '3',
  leverage: 10,
  marginMode: 'CROSSED',
  positionSide: 'BOTH',
  status: 'OPEN',
  closeReason: null,
  closedAt: null,
  updatedAt: '2026-04-26T10:00:00.000Z',
  ...over,
});

export const transfer = (over: Record<string, unknown> = {}) => ({
  id: 'tr-1',
  asset: 'USDT',
  amount: '100',
  transferType: 1,
  status: 'SUCCESS',
  venueTransferId: 'vt-1',
  createdAt: '2026-04-26T10:00:00.000Z',
  updatedAt: '2026-04-26T10:00:00.000Z',
  ...over,
});

export const accountTrade = (over: Record<string, unknown> = {}) => ({
  id: 7,
  symbol: 'BTCUSDT',
  orderId: 'ord-1',
  side: 'BUY',
  price: '60000',
  qty: '0.01',
  quoteQty: '600',
  commission: '0.24',
  commissionAsset: 'USDT',
  time: 1_777_000_000_000,
  isBuyer: true,
  isMaker: false,
  positionSide: 'BOTH',
  ...over,
});

export const closedPositionRecord = (over: Record<string, unknown> = {}) => ({
  symbol: 'BTCUSDT',
  orderSide: 1,
  totalClosedQuantity: '0.01',
  entryPrice: '60000',
  averageClosePrice: '61000',
  realizedPnL: '10',
  fee: '0.5',
  fundingFee: '0',
  openedAt: '2026-04-25T10:00:00.000Z',
  closedAt: '2026-04-26T10:00:00.000Z',
  liquidatedAt: null,
  ...over,
});

export const activityTotals = {
  totalBuyVolume: '600',
  totalSellVolume: '0',
  totalBuyCount: 1,
  totalSellCount: 0,
  totalOrderBuyCount: 1,
  totalOrderSellCount: 0,
  totalDeposits: '100',
  totalWithdrawals: '0',
  totalDepositCount: 1,
  totalWithdrawalCount: 0,
};

export const kline = [
  1_777_000_000_000,
  '60000',
  '60100',
  '59900',
  '60050',
  '12.5',
  1_777_000_059_999,
  '750000',
  42,
  '6',
  '360000',
  '0',
] as const;

/** Canned answers for every endpoint of the spec an API key may call. */
export function specRoutes() {
  return {
    'POST /v2/orders': { body: { ok: true, order: order(), venue: { orderId: 123456 } } },
    'POST /v2/orders/batch': {
      body: {
        ok: true,
        results: [
          { index: 0, success: true, orderId: 'ord-1', symbol: 'BTCUSDT', status: 'NEW' },
          { index: 1, success: false, error: 'Insufficient balance' },
        ],
      },
    },
    'GET /v2/orders': { body: { ok: true, orders: [order()], total: 1 } },
    'GET /v2/orders/ord-1': { body: { ok: true, order: order() } },
    'POST /v2/orders/ord-1/cancel': { body: { ok: true, order: order({ status: 'CANCELED' }), venue: {} } },
    'DELETE /v2/orders/open': {
      body: { ok: true, canceled: 1, total: 1, results: [{ orderId: 'ord-1', symbol: 'BTCUSDT', status: 'CANCELED' }] },
    },
    'POST /v2/positions/close': {
      body: {
        ok: true,
        closed: { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', remainingPosition: '0' },
        venue: {},
      },
    },
    'GET /v2/futures/open-orders': {
      body: {
        ok: true,
        orders: [
          {
            symbol: 'BTCUSDT',
            orderId: 123456,
            side: 'BUY',
            type: 'LIMIT',
            price: '60000',
            origQty: '0.01',
            executedQty: '0',
            status: 'NEW',
            time: 1_777_000_000_000,
          },
        ],
      },
    },
    'GET /v2/futures/myTrades': { body: { ok: true, data: [accountTrade()] } },
    'GET /v2/futures/positionHistory': { body: { ok: true, data: [closedPositionRecord()] } },
    'POST /v2/futures/leverage': { body: { ok: true, data: { leverage: 10, symbol: 'BTCUSDT' } } },
    'POST /v2/futures/margin-type': { body: { ok: true, data: { marginType: 'ISOLATED', symbol: 'BTCUSDT' } } },
    'POST /v2/futures/close-and-switch-margin': {
      body: {
        ok: true,
        data: {
          symbol: 'BTCUSDT',
          marginType: 'ISOLATED',
          canceledOrders: ['ord-1'],
          closedPositions: [{ id: 'pos-1', venuePositionId: 'vp-1', quantity: '0.01' }],
        },
      },
    },
    'POST /v2/futures/position-mode': { body: { ok: true, data: { positionMode: 'HEDGE' } } },
    'GET /v2/futures/balance': {
      body: {
        ok: true,
        balances: {
          assets: [
            {
              asset: 'USDT',
              walletBalance: '1000',
              availableBalance: '900',
              marginBalance: '1000',
              unrealizedProfit: '0',
              crossWalletBalance: '1000',
            },
          ],
        },
      },
    },
    'GET /v2/positions': { body: { ok: true, positions: [position()] } },
    'GET /v2/risk/exposure': { body: { ok: true, grossExposure: '0.01', positions: [position()] } },
    'GET /v2/me/transfers': { body: { ok: true, transfers: [transfer()], total: 1 } },
    'GET /v2/me/activities': {
      body: {
        ok: true,
        data: [
          { type: 'ORDER', id: 'ord-1', data: order(), ts: '2026-04-26T10:00:00.000Z' },
          { type: 'TRANSFER', id: 'tr-1', data: transfer(), ts: '2026-04-26T09:00:00.000Z' },
          { type: 'EXECUTION', id: 'ex-1', data: { price: '60000' }, ts: '2026-04-26T10:00:01.000Z' },
        ],
        total: 3,
        totals: activityTotals,
      },
    },
    'GET /v2/account/pnl-history': {
      body: {
        ok: true,
        history: [{ date: '2026-04-26', pnl: 12.5, volume: 600, trades: 1 }],
        summary: { totalPnl: 12.5, totalVolume: 600, totalTrades: 1 },
      },
    },
    'GET /v2/accounts/acc-1/balances': { body: { ok: true, balances: [{ asset: 'USDT', free: '10', locked: '0' }] } },
    'GET /v2/symbols': { body: { ok: true, symbols: ['BTCUSDT', 'ETHUSDT'] } },
    'GET /v2/ticker/24hr': {
      body: {
        ok: true,
        tickers: [
          {
            symbol: 'BTCUSDT',
            lastPrice: '60000',
            priceChange: '100',
            priceChangePercent: '0.16',
            highPrice: '61000',
            lowPrice: '59000',
            volume: '1000',
            quoteVolume: '60000000',
          },
        ],
      },
    },
    'GET /v2/depth': { body: { ok: true, bids: [['59999', '1.5']], asks: [['60001', '2']] } },
    'GET /v2/trades': {
      body: { ok: true, trades: [{ id: 1, price: '60000', qty: '0.1', time: 1_777_000_000_000, isBuyerMaker: false }] },
    },
    'GET /v2/funding-rate': { body: { ok: true, symbol: 'BTCUSDT', fundingRate: '0.0001' } },
    'GET /v2/klines': { body: { ok: true, data: [kline] } },
    'GET /v2/leaderboard': (req: { query: URLSearchParams }) => {
      const type = req.query.get('type');
      const base = { rank: 1, walletAddress: '0xabc' };
      const row =
        type === 'volume'
          ? { ...base, accountId: 'acc-1', volume: '1000' }
          : type === 'referrals'
            ? { ...base, userId: 'u-1', referralCount: 3 }
            : { ...base, userId: 'u-1', totalCommission: '12.5' };
      return { body: { ok: true, type, period: req.query.get('period') ?? 'all', data: [row] } };
    },
    'GET /v2/platform/tokens': {
      body: { ok: true, hash: 'h1', tokens: [{ chainId: 1, asset: 'USDT', decimals: 6, contractAddress: '0xdac' }] },
    },
    'GET /v2/platform/status': {
      body: { ok: true, features: { referral: true, trading: true, deposits: true, withdrawals: false } },
    },
    'GET /health': { body: { ok: true, service: 'futures-api' } },
  };
}
