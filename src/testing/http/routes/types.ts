import type { SimRequest } from '../../_types.ts';
import type { Engine } from '../../engine/engine.ts';
import type { AccountState } from '../../engine/state.ts';
import type { MarketSimulator } from '../../market/simulator.ts';
import type { SimBucket } from '../rate-limits.ts';

/** What a signed route handler receives. */
export interface RouteContext {
  req: SimRequest;
  account: AccountState;
  engine: Engine;
  market: MarketSimulator;
  /** Decoded path captures. */
  params: string[];
  now: number;
}

/** One signed endpoint. The handler returns the 200 body or throws `SimHttpError`. */
export interface RouteDef {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT';
  /** Matched against the raw (still-encoded) pathname; captures are percent-decoded. */
  pattern: RegExp;
  permission: 'TRADE' | 'READ';
  bucket: SimBucket;
  handle(ctx: RouteContext): unknown;
}
