import { ApiError } from '../errors/api-error.ts';
import { uuidV4 } from './uuid.ts';

/**
 * Which REST call moved (or may have moved) a position: `create` (one order of `orders.create` or `createBatch`),
 * `close` (`orders.closePosition`), `closeAndSwitchMargin` (every position of the symbol, both sides).
 */
export type JournalCallKind = 'create' | 'close' | 'closeAndSwitchMargin';

/** What the caller knows about a position-moving call when it starts. */
export interface JournalEntryInit {
  kind: JournalCallKind;
  symbol?: string | undefined;
  /** For `close`: the position being closed (the detector maps it to its symbol and side). */
  positionId?: string | undefined;
  positionSide?: string | undefined;
  side?: 'BUY' | 'SELL' | undefined;
  /** Order type of a `create`: `MARKET` explains a change at once; resting types fill later (as maker or taker). */
  orderType?: string | undefined;
  /** Positive decimal string; for `close`, omitted means the whole position. */
  quantity?: string | undefined;
  /** Sub-account the call names (after the client's default); omitted means the primary one. */
  subAccountId?: string | undefined;
}

/** An order a journaled call placed, as its response reported it. */
export interface JournalOrder {
  id: string;
  symbol: string;
  status: string;
}

/**
 * One position-moving REST call of this client, with local times (`clock.now()` of the client). `outcome`:
 * `pending` in flight; `ok` after a 2xx; `rejected` after a 4xx or a 2xx saying nothing was done (the server did
 * not act); `unknown` after a timeout, a network error or a 5xx (the server may have acted).
 */
export interface JournalEntry extends Readonly<JournalEntryInit> {
  readonly id: number;
  /** When the call started (ms, local clock). */
  readonly at: number;
  /** When the call settled; undefined while in flight. */
  readonly endedAt: number | undefined;
  readonly outcome: 'pending' | 'ok' | 'rejected' | 'unknown';
  /** Orders the call placed (ids from the response), so that a watcher can follow them. */
  readonly orders: readonly JournalOrder[];
}

/** Returned by {@link CallJournal.begin}; settle it exactly once (later calls are ignored). */
export interface JournalHandle {
  /** Succeeded, placing `orders` (`null`: it did nothing); `learned`: what its response told (a close's side). */
  succeed(orders?: readonly JournalOrder[] | null, learned?: Partial<JournalEntryInit>): void;
  /** The call failed with `error`; a 4xx means the server did not act. */
  fail(error: unknown): void;
}

type MutableEntry = { -readonly [K in keyof JournalEntry]: JournalEntry[K] };

/**
 * This client's own position-moving REST calls (written by {@link journalCall} around each), with their start and
 * end times: the maker-fill detector tells the client's own position changes from maker fills with it (spec,
 * Events rule 2). One per client (`ctx.journal`); entries settled more than `retentionMs` ago are dropped.
 */
export class CallJournal {
  readonly #clock: { now(): number };
  readonly #retentionMs: number;
  readonly #list: MutableEntry[] = [];
  #nextId = 1;
  /** Tells this journal's entry ids from another's (a checkpoint names the journal its ids belong to). */
  readonly instance = uuidV4();

  /** `clock.now()` is the time base of every entry. */
  constructor(clock: { now(): number }, retentionMs = 120_000) {
    this.#clock = clock;
    this.#retentionMs = retentionMs;
  }

  begin(init: JournalEntryInit): JournalHandle {
    this.#prune();
    const entry: MutableEntry = {
      ...init,
      id: this.#nextId++,
      at: this.#clock.now(),
      endedAt: undefined,
      outcome: 'pending',
      orders: [],
    };
    this.#list.push(entry);
    const settle = (end: Partial<MutableEntry>) => {
      if (entry.endedAt === undefined) Object.assign(entry, end, { endedAt: this.#clock.now() });
    };
    return {
      succeed: (orders = [], learned = {}) =>
        settle({ ...learned, outcome: orders === null ? 'rejected' : 'ok', orders: [...(orders ?? [])] }),
      fail: (error) => {
        // A 4xx after an earlier attempt that may have acted (outcomeUnknown) is not proof that nothing happened.
        const refused = error instanceof ApiError && error.status >= 400 && error.status < 500 && !error.outcomeUnknown;
        settle({ outcome: refused ? 'rejected' : 'unknown' });
      },
    };
  }

  /** Entries (oldest first) that started at or after `since`, or that are still in flight. */
  entries(since = -Infinity): readonly JournalEntry[] {
    this.#prune();
    return this.#list.filter((entry) => entry.at >= since || entry.endedAt === undefined || entry.endedAt >= since);
  }

  #prune(): void {
    const horizon = this.#clock.now() - this.#retentionMs;
    while ((this.#list[0]?.endedAt ?? Infinity) < horizon) this.#list.shift();
  }
}

/** Runs a position-moving call under the journal (if any): one entry per item of `inits`, settled with the call. */
export async function journalCall<T>(
  journal: CallJournal | undefined,
  inits: readonly JournalEntryInit[],
  run: () => Promise<T>,
  ordersOf?: (result: T) => ReadonlyArray<readonly JournalOrder[] | undefined | null>,
  learn?: (result: T) => Partial<JournalEntryInit>,
): Promise<T> {
  if (!journal) return run();
  const handles = inits.map((init) => journal.begin(init));
  let result: T;
  try {
    result = await run();
  } catch (error) {
    for (const handle of handles) handle.fail(error);
    throw error;
  }
  let orders: ReadonlyArray<readonly JournalOrder[] | undefined | null> = [];
  let learned: Partial<JournalEntryInit> = {};
  try {
    orders = ordersOf?.(result) ?? [];
    learned = learn?.(result) ?? {};
  } catch {} // best effort: the call itself succeeded
  for (const [index, handle] of handles.entries()) handle.succeed(orders[index], learned);
  return result;
}

/** The journal entry of one order body (`orders.create`, or one `createBatch` item). */
export function orderJournalInit(body: Readonly<Record<string, unknown>>): JournalEntryInit {
  const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
  const side = text('side');
  return {
    kind: 'create',
    symbol: text('symbol'),
    positionSide: text('positionSide'),
    side: side === 'BUY' || side === 'SELL' ? side : undefined,
    orderType: text('type'),
    quantity: text('quantity'),
    subAccountId: text('subAccountId'),
  };
}

type Text = string | null | undefined;

/** Per item, the order a `createBatch` response placed (matched by `index`); `null`: the item was refused. */
export function batchJournalOrders(
  results: ReadonlyArray<{ index: number; success: boolean } & Partial<Record<'orderId' | 'symbol' | 'status', Text>>>,
  itemCount: number,
): Array<JournalOrder[] | undefined | null> {
  const perItem: Array<JournalOrder[] | undefined | null> = Array.from({ length: itemCount }, () => undefined);
  for (const { index, success, orderId, symbol, status } of results) {
    if (!(index >= 0 && index < itemCount)) continue;
    if (!success) perItem[index] = null;
    else if (orderId && symbol) perItem[index] = [{ id: orderId, symbol, status: status ?? 'NEW' }];
  }
  return perItem;
}
