import { describe, expect, it } from 'vitest';
import * as zc from 'zod';
import * as z from 'zod/mini';
import { orderSchema } from '../../src/index.ts';
import { order } from '../actions/_fixtures.ts';

// What the migration note of the zod/mini change promises: the exported schemas still parse on their own and
// inside an app's classic or mini schemas, and unknown fields are still kept.
describe('exported schemas inside an app’s own zod schemas', () => {
  const body = order({ extra: { kept: true } });

  it('parse on their own, keeping unknown fields', () => {
    expect(orderSchema.parse(body)).toEqual(body);
    expect(orderSchema.safeParse({ ...body, id: 1 }).success).toBe(false);
  });

  it('nest in a classic zod object', () => {
    const wrapper = zc.object({ order: orderSchema, at: zc.number() });
    expect(wrapper.parse({ order: body, at: 1 }).order).toEqual(body);
    const failure = wrapper.safeParse({ order: { ...body, quantity: 1 }, at: 1 });
    expect(failure.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['order.quantity']);
  });

  it('extend with zod/mini', () => {
    const withNote = z.extend(orderSchema, { note: z.string() });
    expect(withNote.parse({ ...body, note: 'n' })).toEqual({ ...body, note: 'n' });
    expect(withNote.safeParse(body).success).toBe(false);
  });
});
