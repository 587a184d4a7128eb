import type { CallJournal } from '../events/journal.ts';
import type { Transport } from './transport.ts';

/** What every action needs: the transport and the client's defaults. */
export interface ClientContext {
  readonly transport: Transport;
  /** Default `subAccountId` for calls that accept one. */
  readonly subAccountId: string | undefined;
  /** This client's position-moving calls, for maker-fill detection (`client.watch()`); see events/journal.ts. */
  readonly journal?: CallJournal | undefined;
}

/** Percent-encodes one path segment (`a/../b` → `a%2F..%2Fb`). */
export function encodePathSegment(id: string): string {
  return encodeURIComponent(id).replace(/\./g, (dot, offset, whole: string) =>
    // A segment of only dots would be normalised away by URL parsers; encode those dots.
    /^\.+$/.test(whole) ? '%2E' : dot,
  );
}
