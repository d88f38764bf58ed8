/** ListOptions are the paging parameters every list takes; each list's options add its sort fields and filters. */
export interface ListOptions {
  /** page is the 1-based page number; the iterators start there. Default 1. */
  page?: number;
  /**
   * pageSize is the number of records per page: the server's default (25)
   * when absent, capped at 250 (50 for orders). The iterators ask for the
   * largest size when it is absent, to need fewer requests.
   */
  pageSize?: number;
}

/** PageSizes are the largest page sizes the server gives (contract §5, §10). */
export const MAX_PAGE_SIZE = 250;
export const MAX_ORDER_PAGE_SIZE = 50;

/**
 * walk yields every record of a paged list, reading page after page with
 * list, from first.page on, until the server reports no more pages. Any list
 * works, including ones the Client does not wrap. An empty page ends the walk
 * even when the server claimed more, so that a changing list cannot keep it
 * going for ever.
 *
 * Pages are read by number, so records inserted or deleted in front of the
 * current page while the walk runs shift the pages: a record may then be seen
 * twice or not at all. To follow a changing data set use the *Changes methods.
 */
export async function* walk<T, O extends ListOptions>(
  first: O,
  list: (options: O) => Promise<{ value: T[]; hasMore: boolean }>,
  maxPageSize: number = MAX_PAGE_SIZE,
): AsyncGenerator<T, void, undefined> {
  const options = { ...first, page: Math.max(first.page ?? 1, 1), pageSize: first.pageSize ?? maxPageSize };
  for (;;) {
    const page = await list(options);
    yield* page.value;
    if (!page.hasMore || page.value.length === 0) return;
    options.page++;
  }
}
