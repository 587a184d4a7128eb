import { describe, expectTypeOf, it } from 'vitest';
import * as zc from 'zod';
import * as z from 'zod/mini';
import { type Order, orderSchema, type Position, positionSchema } from '../../src/index.ts';

// The exported schemas are zod/mini schemas: an app composes them with zod classic or zod/mini, and the
// inferred types are the exported ones.
describe('exported schemas in an app’s own zod code', () => {
  it('infer the exported types', () => {
    expectTypeOf<z.infer<typeof orderSchema>>().toEqualTypeOf<Order>();
    expectTypeOf<zc.infer<typeof positionSchema>>().toEqualTypeOf<Position>();
  });

  it('nest inside classic and mini schemas', () => {
    const classic = zc.object({ order: orderSchema, positions: zc.array(positionSchema) });
    expectTypeOf<zc.infer<typeof classic>['order']>().toEqualTypeOf<Order>();
    const extended = z.extend(orderSchema, { note: z.string() });
    expectTypeOf<z.infer<typeof extended>['note']>().toEqualTypeOf<string>();
    expectTypeOf<z.infer<typeof extended>['id']>().toEqualTypeOf<string>();
  });
});
