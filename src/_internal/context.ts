import type { CallJournal } from './journal.ts';
import type { Transport } from './transport.ts';

/** What every action needs: the transport and the client's defaults. */
export interface ClientContext {
  readonly transport: Transport;
  /** Default `subAccountId` for calls that accept one. */
  readonly subAccountId: string | undefined;
  /** This client's position-moving calls, for maker-fill detection (`client.watch()`); see journal.ts. */
  readonly journal?: CallJournal | undefined;
}

/**
 * Percent-encodes one path segment (`a/../b` → `a%2F..%2Fb`). A segment that is exactly `.` or `..` cannot be
 * sent safely (URL parsers resolve it even when encoded as `%2E`), so actions reject those ids before calling this.
 */
export function encodePathSegment(id: string): string {
  return encodeURIComponent(id);
}
