// The reads `client.watch()` polls, called with a client's context instead of the client: the account watcher is
// given the context (src/events/watcher.ts). Each is the endpoint's own function, on a client that is only that
// context (the endpoint functions read nothing else of a client: see `contextOf`).
import type { ClientContext } from '../_internal/context.ts';
import type { BaseClient } from '../base-client.ts';
import { positions as positionsOfClient } from './account/positions.ts';
import { get as getOfClient } from './orders/get.ts';
import { list as listOfClient } from './orders/list.ts';
import { myTrades as myTradesOfClient } from './orders/my-trades.ts';
import { openOrders as openOrdersOfClient } from './orders/open-orders.ts';

function onContext<A extends unknown[], R>(read: (client: BaseClient, ...args: A) => R) {
  return (ctx: ClientContext, ...args: A): R => read({ ctx } as unknown as BaseClient, ...args);
}

export const positions = /* @__PURE__ */ onContext(positionsOfClient);
export const get = /* @__PURE__ */ onContext(getOfClient);
export const list = /* @__PURE__ */ onContext(listOfClient);
export const myTrades = /* @__PURE__ */ onContext(myTradesOfClient);
export const openOrders = /* @__PURE__ */ onContext(openOrdersOfClient);
