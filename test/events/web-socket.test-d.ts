import { describe, expectTypeOf, it } from 'vitest';
import WebSocket from 'ws';
import {
  type AccountStreamOptions,
  FuturesClient,
  type FuturesClientOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from '../../src/index.ts';

describe('WebSocketConstructor is structural', () => {
  it('accepts the ws package class without a cast', () => {
    expectTypeOf(WebSocket).toExtend<WebSocketConstructor>();
    const impl: WebSocketConstructor = WebSocket;
    expectTypeOf(impl).toEqualTypeOf<WebSocketConstructor>();
    expectTypeOf<WebSocket>().toExtend<WebSocketLike>();
  });

  it('accepts the runtime global WebSocket without a cast', () => {
    expectTypeOf(globalThis.WebSocket).toExtend<WebSocketConstructor>();
    expectTypeOf<globalThis.WebSocket>().toExtend<WebSocketLike>();
  });

  it('both fit the client and stream options as written in the docs', () => {
    const client = new FuturesClient({ baseUrl: 'https://api.example.com', WebSocket });
    client.stream({ url: 'wss://api.example.com/v2/ws/account', token: 'jwt', WebSocket, autoConnect: false });
    client.stream({ url: 'wss://x.test/ws', token: 'jwt', WebSocket: globalThis.WebSocket, autoConnect: false });
    expectTypeOf<{ baseUrl: string; WebSocket: typeof WebSocket }>().toExtend<FuturesClientOptions>();
    expectTypeOf<{
      url: string;
      token: string;
      WebSocket: typeof globalThis.WebSocket;
    }>().toExtend<AccountStreamOptions>();
  });

  it('rejects something that is not a WebSocket', () => {
    expectTypeOf(Map).not.toExtend<WebSocketConstructor>();
    expectTypeOf<{ readyState: number; send(data: string): void }>().not.toExtend<WebSocketLike>();
  });
});
