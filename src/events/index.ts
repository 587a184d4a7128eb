export {
  DEFAULT_MAKER_FILL_WINDOW_MS,
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
  CallJournal,
  type JournalCallKind,
  type JournalEntry,
  type JournalEntryInit,
  type JournalHandle,
  type JournalOrder,
  journalCall,
} from './journal.ts';
export { type BackoffOptions, backoffDelay, type EventScheduler, systemScheduler } from './scheduler.ts';
export {
  AccountStream,
  type AccountStreamEvents,
  type AccountStreamOptions,
  type AccountStreamState,
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
  AccountWatcher,
  type AccountWatcherEvents,
  type AccountWatcherOptions,
  type OrderChange,
  type PositionChange,
} from './watcher.ts';
export type {
  WebSocketCloseEventLike,
  WebSocketErrorEventLike,
  WebSocketLike,
  WebSocketMessageEventLike,
} from './web-socket.ts';
