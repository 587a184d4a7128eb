// The key of one position (symbol and position side) in the maps of the watcher and of detectMakerFills. The
// side is required: a caller whose input may lack it says which side that means (one-way mode's `BOTH`).

/** `symbol` and `positionSide` joined by a NUL, which neither contains. */
export function positionKey(symbol: string, positionSide: string): string {
  return `${symbol}\u0000${positionSide}`;
}
