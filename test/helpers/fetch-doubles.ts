/**
 * A network failure as a real `fetch` reports it: after an I/O turn. (A promise that is already rejected when
 * `fetch` returns cannot come from the network, so the SDK takes it for "nothing was sent".)
 */
export function rejectAfterSending(error: unknown): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(error), 0));
}
