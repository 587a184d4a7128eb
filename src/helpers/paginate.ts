/** One page as an offset-paginated endpoint returns it. */
export interface Page<T> {
  items: ReadonlyArray<T>;
  /** Total number of rows the server reports across all pages. */
  total: number;
}

/** How to walk an offset-paginated endpoint. */
export interface PaginateOptions {
  /** Rows requested per page. */
  pageSize: number;
  /** Stop at a page shorter than `pageSize`: safe only within the server's maximum (a capped page ends it early). */
  stopOnShortPage: boolean;
}

/**
 * Yields every row of an offset-paginated endpoint; the offset advances by the rows received, so a server capping
 * pages below `pageSize` skips nothing. Ends at `total`, an empty page, or (optionally) a short page.
 */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>,
  options: PaginateOptions,
): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const page = await fetchPage(offset, options.pageSize);
    yield* page.items;
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total) return;
    if (options.stopOnShortPage && page.items.length < options.pageSize) return;
  }
}
