import { describe, expectTypeOf, it } from 'vitest';
import * as zc from 'zod';
import * as z from 'zod/mini';
import {
  type Order,
  orderSchema,
  type Position,
  positionSchema,
  type Strict,
  type WithUnknownFields,
} from '../../src/index.ts';

// The exported schemas are zod/mini schemas: an app composes them with zod classic or zod/mini; the exported types
// are their inferred types without the index signature the loose schemas carry (unknown fields are kept at run
// time, but reading one is a compile error unless you ask for it with WithUnknownFields).
describe('exported schemas in an app’s own zod code', () => {
  it('infer the exported types', () => {
    expectTypeOf<Strict<z.infer<typeof orderSchema>>>().toEqualTypeOf<Order>();
    expectTypeOf<Strict<zc.infer<typeof positionSchema>>>().toEqualTypeOf<Position>();
  });

  it('nest inside classic and mini schemas', () => {
    const classic = zc.object({ order: orderSchema, positions: zc.array(positionSchema) });
    expectTypeOf<Strict<zc.infer<typeof classic>['order']>>().toEqualTypeOf<Order>();
    const extended = z.extend(orderSchema, { note: z.string() });
    expectTypeOf<z.infer<typeof extended>['note']>().toEqualTypeOf<string>();
    expectTypeOf<z.infer<typeof extended>['id']>().toEqualTypeOf<string>();
  });
});

describe('response types name their documented fields exactly', () => {
  it('a field the spec does not document is a compile error; WithUnknownFields reads one as unknown', () => {
    const position = {} as Position;
    // @ts-expect-error entryPrice is not a field of Position (the spec's is avgEntryPrice)
    void position.entryPrice;
    expectTypeOf(position.avgEntryPrice).toEqualTypeOf<string>();
    const loose = position as WithUnknownFields<Position>;
    expectTypeOf(loose['venueRiskTier']).toEqualTypeOf<unknown>();
  });
});
