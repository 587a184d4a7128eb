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
  /**
   * Stop when a page is shorter than `pageSize`. Only safe when `pageSize` is within the server's documented
   * maximum: a server that silently caps the page would otherwise end the walk early.
   */
  stopOnShortPage: boolean;
}

/**
 * Walks an offset-paginated endpoint page by page and yields every row. The offset advances by the rows
 * actually received (not by `pageSize`), so a server that caps pages below `pageSize` skips nothing. The walk
 * ends when `total` is reached, a page is empty, or (optionally) a page is short.
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
