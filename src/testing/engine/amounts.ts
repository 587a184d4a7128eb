import { decDiv, decSign } from '../../_internal/decimal.ts';
import type { Side } from './state.ts';

/** Rounded to the 8 decimals the venue books amounts with. */
export const r8 = (value: string): string => decDiv(value, '1', 8);
export const isZero = (value: string): boolean => decSign(value) === 0;
/** +1 for a buy, −1 for a sell: the sign a fill adds to a position's quantity. */
export const dirOf = (side: Side): 1 | -1 => (side === 'BUY' ? 1 : -1);
