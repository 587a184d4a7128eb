export { type NormalizedPositionRecord, normalizePositionHistory } from './normalize-position-history.ts';
export { type Page, type PaginateOptions, paginate } from './paginate.ts';
export { type ParsedKline, parseKline } from './parse-kline.ts';
