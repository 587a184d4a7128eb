import { type ApiErrorInit, envelopeField, ServerError } from './api-error.ts';
import { setFields } from './futures-error.ts';

/** A position that close-and-switch-margin closed before failing. */
export interface ClosedPositionRef {
  id: string;
  venuePositionId: string;
  quantity: string;
}

function arrayField(body: unknown, key: string): unknown[] {
  const value = envelopeField(body, key);
  return Array.isArray(value) ? value : [];
}

/**
 * 502 from close-and-switch-margin. There is no rollback: with `stage === 'switch'` the orders were canceled
 * and the positions closed, but the margin mode is unchanged; with `stage === 'close'` orders were canceled and
 * closing failed part-way (`venueErrorCode` says why). `closedPositions` and `canceledOrders` list what is gone.
 * @example
 * ```ts
 * import { MarginSwitchError } from 'futures-sdk';
 * if (err instanceof MarginSwitchError && err.stage === 'switch') {
 *   console.warn('positions closed but mode unchanged', err.closedPositions, err.canceledOrders);
 * }
 * ```
 */
export class MarginSwitchError extends ServerError {
  override name = 'MarginSwitchError';
  /** Positions closed before the failure (empty when the server did not say). */
  declare readonly closedPositions: ReadonlyArray<ClosedPositionRef>;
  /** Order ids canceled before the failure (empty when the server did not say). */
  declare readonly canceledOrders: ReadonlyArray<string>;

  constructor(init: ApiErrorInit) {
    super(init);
    setFields<MarginSwitchError>(this, {
      closedPositions: arrayField(init.body, 'closedPositions').filter(
        (p): p is ClosedPositionRef => typeof p === 'object' && p !== null,
      ),
      canceledOrders: arrayField(init.body, 'canceledOrders').map(String),
    });
  }
}
