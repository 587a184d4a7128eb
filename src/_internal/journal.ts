import type { FuturesError } from '../errors/futures-error.ts';
import { apiStatus } from './retry-policy.ts';
import { uuidV4 } from './uuid.ts';

/** `create`: one order of `orders.create`/`createBatch`; `close`; `closeAndSwitchMargin` (the symbol's positions). */
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
 * One position-moving call of this client, in `clock.now()` times. `outcome`: `pending`; `ok` (2xx); `rejected`
 * (4xx, or a 2xx that did nothing: the server did not act); `unknown` (timeout, network error, 5xx: it may have).
 */
export interface JournalEntry extends Readonly<JournalEntryInit> {
  readonly id: number;
  /** When the call started. */
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
 * This client's position-moving calls with start and end times ({@link journalCall}): the maker-fill detector tells
 * its own position changes from maker fills with it (spec, Events rule 2). Keeps entries for `retentionMs`.
 */
export class CallJournal {
  readonly #clock: { now(): number };
  readonly #retentionMs: number;
  readonly #list: MutableEntry[] = [];
  #nextId = 1;
  /** Tells this journal's entry ids from another's (a checkpoint names the journal its ids belong to). */
  readonly instance = uuidV4();

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
      // A 4xx after an earlier attempt that may have acted (outcomeUnknown) is not proof that nothing happened.
      fail: (error) => {
        const status = apiStatus(error);
        const refused = status >= 400 && status < 500 && !(error as FuturesError).outcomeUnknown;
        settle({ outcome: refused ? 'rejected' : 'unknown' });
      },
    };
  }

  /** Entries (oldest first) that started at or after `since`, or that are still in flight. */
  entries(since = -Infinity): readonly JournalEntry[] {
    this.#prune();
    return this.#list.filter((entry) => entry.at >= since || (entry.endedAt ?? Infinity) >= since);
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
  const perItem = new Array<JournalOrder[] | undefined | null>(itemCount).fill(undefined);
  for (const { index, success, orderId, symbol, status } of results) {
    if (!(index >= 0 && index < itemCount)) continue;
    if (!success) perItem[index] = null;
    else if (orderId && symbol) perItem[index] = [{ id: orderId, symbol, status: status ?? 'NEW' }];
  }
  return perItem;
}
