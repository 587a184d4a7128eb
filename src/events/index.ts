// Only the journal's entry types are public (detectMakerFills takes a journal); the journal is internal plumbing.
export type { JournalCallKind, JournalEntry, JournalOrder } from '../_internal/journal.ts';
export {
  DEFAULT_MAKER_FILL_WINDOW_MS,
  type DeferredTrade,
  type DetectMakerFillsInput,
  detectMakerFills,
  type MakerFill,
  type MakerFillCarry,
  type MakerFillDetection,
  type PendingChange,
  type PositionQuantity,
  type TakerTrade,
} from './detect-maker-fills.ts';
export {
  AccountStream,
  type AccountStreamEvents,
  type AccountStreamOptions,
  type AccountStreamState,
  type BackoffOptions,
  type FullSnapshotData,
  type MarketChannel,
  type MarketMessage,
  type OrderEventData,
  type PositionUpdateData,
  type StreamToken,
  type UnknownAccountEvent,
} from './stream.ts';
export { StreamError, type StreamErrorKind } from './stream-error.ts';
export {
  type AccountSnapshot,
  AccountWatcher,
  type AccountWatcherEvents,
  type AccountWatcherOptions,
  type AccountWatcherPollResult,
  type OrderChange,
  type PositionChange,
  type WatcherCheckpoint,
} from './watcher.ts';
export type {
  WebSocketCloseEventLike,
  WebSocketErrorEventLike,
  WebSocketLike,
  WebSocketMessageEventLike,
} from './web-socket.ts';
