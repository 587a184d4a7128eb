export { type DecimalHelpers, type DecimalRounding, type DivOptions, decimal } from './decimal.ts';
export { type NormalizedPositionRecord, normalizePositionHistory } from './normalize-position-history.ts';
export { type ParsedKline, parseKline } from './parse-kline.ts';
