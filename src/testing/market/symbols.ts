/**
 * The ~144 active symbols (fixed across seeds: only prices depend on the seed), their tick and lot sizes, and the
 * exact conversion between whole ticks or lots and decimal strings.
 */

import { decDiv, decMul } from '../../_internal/decimal.ts';
import { hashKey, mulberry32 } from './random.ts';

/** Well-known contracts with a plausible starting price; the rest of the ~144 are generated names. */
const KNOWN_BASES: ReadonlyArray<readonly [string, number]> = [
  ['BTC', 65000],
  ['ETH', 3500],
  ['SOL', 150],
  ['BNB', 600],
  ['XRP', 0.6],
  ['DOGE', 0.15],
  ['ADA', 0.45],
  ['AVAX', 35],
  ['LINK', 15],
  ['DOT', 7],
  ['TRX', 0.12],
  ['POL', 0.7],
  ['LTC', 80],
  ['BCH', 450],
  ['NEAR', 6],
  ['UNI', 8],
  ['ATOM', 9],
  ['APT', 9],
  ['ARB', 1.1],
  ['OP', 2.5],
  ['SUI', 1.2],
  ['FIL', 6],
  ['ETC', 27],
  ['XLM', 0.11],
  ['INJ', 25],
  ['TIA', 10],
  ['SEI', 0.5],
  ['AAVE', 100],
  ['MKR', 2800],
  ['RUNE', 5],
  ['LDO', 2],
  ['WIF', 2.5],
  ['ORDI', 40],
  ['FET', 1.5],
  ['RENDER', 8],
  ['IMX', 2],
  ['STX', 2],
  ['HBAR', 0.08],
  ['ICP', 12],
  ['TON', 6],
];

/** Number of active symbols (the spec says "about 144"). */
const SYMBOL_COUNT = 144;

export interface SymbolSpec {
  symbol: string;
  index: number;
  /** Fractional digits of the tick size. */
  priceDecimals: number;
  tickSize: string;
  /** Fractional digits of the lot step. */
  qtyDecimals: number;
  stepSize: string;
  initialPrice: number;
  /** Typical 24 h quote volume in USDT (drives volumes and order-book sizes). */
  dailyQuoteVolume: number;
  /** Milliseconds between two public trades. */
  tradeIntervalMs: number;
}

export function unitString(decimals: number): string {
  return decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`;
}

/** About five significant digits of price resolution, as real venues choose. */
function priceDecimalsFor(price: number): number {
  return Math.min(8, Math.max(1, 5 - Math.floor(Math.log10(price))));
}

function qtyDecimalsFor(price: number): number {
  return Math.min(3, Math.max(0, Math.floor(Math.log10(price)) - 1));
}

/** Fixed across seeds, so tests can rely on the symbol list; only prices depend on the seed. */
function buildSymbolSpecs(): SymbolSpec[] {
  const bases: Array<readonly [string, number]> = [...KNOWN_BASES];
  const taken = new Set(bases.map(([base]) => base));
  const rand = mulberry32(0x5eed_5eed);
  const consonants = 'BCDFGHJKLMNPRSTVWXZ';
  const vowels = 'AEIOUY';
  while (bases.length < SYMBOL_COUNT) {
    const length = 3 + Math.floor(rand() * 3);
    let name = '';
    for (let i = 0; i < length; i++) {
      const alphabet = i % 2 === 0 ? consonants : vowels;
      name += alphabet[Math.floor(rand() * alphabet.length)];
    }
    if (taken.has(name)) continue;
    taken.add(name);
    // Log-uniform between 0.001 and 500 USDT.
    const price = Number((10 ** (-3 + rand() * 5.7)).toPrecision(3));
    bases.push([name, price]);
  }
  return bases.map(([base, price], index) => {
    const priceDecimals = priceDecimalsFor(price);
    const qtyDecimals = qtyDecimalsFor(price);
    const rand2 = mulberry32(hashKey(0x5eed, base));
    const rankWeight = 1 / (1 + index / 4);
    return {
      symbol: `${base}USDT`,
      index,
      priceDecimals,
      tickSize: unitString(priceDecimals),
      qtyDecimals,
      stepSize: unitString(qtyDecimals),
      initialPrice: price,
      dailyQuoteVolume: Math.round(2e9 * rankWeight * (0.5 + rand2())),
      tradeIntervalMs: index < 10 ? 250 : 500 + Math.floor(rand2() * 8) * 250,
    };
  });
}

export const SYMBOL_SPECS = buildSymbolSpecs();

/** `units` whole ticks (or lot steps) of `unit` as an exact decimal string. */
export function units(count: number, unit: string): string {
  return decMul(String(count), unit);
}

/** The number of whole `decimals`-digit units in a positive decimal string, rounded half up. Exact. */
export function toUnits(value: string, decimals: number): number {
  return Number(decDiv(value, unitString(decimals), 0));
}

/** Whole `decimals`-digit units in a positive decimal string, rounded down. Exact (string digits only). */
export function toFloorUnits(value: string, decimals: number): number {
  const [int = '0', frac = ''] = value.split('.');
  return Number(`${int}${frac.padEnd(decimals, '0').slice(0, decimals)}`);
}
