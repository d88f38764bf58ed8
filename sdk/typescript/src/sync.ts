import type { AliasListOptions } from "./items.js";
import type { Client } from "./client.js";
import type { LotListOptions, StockLevelListOptions } from "./inventory.js";
import type { TransactionListOptions } from "./ledger.js";
import { MAX_PAGE_SIZE } from "./paging.js";
import type { CallOptions, Reply } from "./transport.js";
import type { Alias, Item, Lot, StockLevel, Transaction } from "./types.js";

/**
 * Changes is the result of an incremental sync: what changed in a list since
 * the mark of the previous sync, and the mark to keep for the next one. A sync
 * loop keeps one mark per list (and per filter), starting from none, which
 * fetches everything:
 *
 *     const changes = await client.stockLevelChanges(mark);
 *     for (const level of changes.records) upsert(level); // by its key: a record may come again
 *     mark = changes.mark;                                 // keep it only once they are applied
 *
 * Records may repeat across syncs: the mark is kept a little behind the
 * server's clock (ClientOptions.syncSettleMs), so that a change whose
 * transaction committed late is not passed over. Apply records as upserts
 * keyed by their identity (partNo, recNo, alias, transaction id), never as
 * increments.
 */
export interface Changes<T> {
  /** records are the records modified at or after the mark given, each once in its latest version, oldest change first. */
  records: T[];
  /**
   * mark is what to pass as since next time: an RFC 3339 time to the
   * microsecond, or undefined while nothing has been seen. It never moves
   * backwards.
   */
  mark: string | undefined;
}

/** SyncFilter is a list's options without the paging, sorting and modifiedSince that a sync sets itself. */
export type SyncFilter<O> = Omit<O, "page" | "pageSize" | "sort" | "direction" | "modifiedSince">;

/** A sync's query of one page: what every list takes. */
interface SyncQuery {
  page: number;
  pageSize: number;
  sort: "modified";
  direction: "ASC";
  modifiedSince?: string;
}

/** The *Changes methods: incremental syncs over the lists whose records carry `modified`. */
export const syncCalls = {
  /** itemChanges returns the items modified at or after since, discontinued ones included. */
  itemChanges(since?: string | Date, call?: CallOptions): Promise<Changes<Item>> {
    return changes(this, since, (q) => this.exchange("get", "/api/v1/Item/All", { query: q }, call), (it) => it.modified, (it) => String(it.partNo));
  },

  /**
   * aliasChanges returns the aliases created or changed at or after since
   * (filter.itemID keeps one item's). The server keeps no record of deleted
   * aliases, so a deletion is not a change a sync can see.
   */
  aliasChanges(since?: string | Date, filter: SyncFilter<AliasListOptions> = {}, call?: CallOptions): Promise<Changes<Alias>> {
    return changes(
      this,
      since,
      (q) => this.exchange("get", "/api/v1/Alias", { query: { ...filter, ...q } }, call),
      (al) => al.modified,
      (al) => al.alias.toLowerCase(),
    );
  },

  /**
   * lotChanges returns the lots modified at or after since, emptied lots
   * included so that the copy learns they are gone. A lot that a change takes
   * out of the filter (moved elsewhere, held or released) is not returned by a
   * sync filtered that way.
   */
  lotChanges(since?: string | Date, filter: SyncFilter<LotListOptions> = {}, call?: CallOptions): Promise<Changes<Lot>> {
    const { wid, ...rest } = filter;
    const query = { ...rest, includeShipped: true };
    return changes(
      this,
      since,
      (q) =>
        wid === undefined
          ? this.exchange("get", "/api/v1/Inventory", { query: { ...query, ...q } }, call)
          : this.exchange("get", "/api/v1/Inventory/{wid}", { params: { wid }, query: { ...query, ...q } }, call),
      (l) => l.modified,
      (l) => String(l.recNo),
    );
  },

  /**
   * stockLevelChanges returns the stock levels modified at or after since,
   * levels that fell to zero included (filter.wid: one warehouse's levels
   * rather than the sum).
   */
  stockLevelChanges(
    since?: string | Date,
    filter: SyncFilter<StockLevelListOptions> = {},
    call?: CallOptions,
  ): Promise<Changes<StockLevel>> {
    const { wid, ...rest } = filter;
    const query = { ...rest, includeZero: true };
    return changes(
      this,
      since,
      (q) =>
        wid === undefined
          ? this.exchange("get", "/api/v1/Inventory/StockLevels", { query: { ...query, ...q } }, call)
          : this.exchange("get", "/api/v1/Inventory/StockLevels/{wid}", { params: { wid }, query: { ...query, ...q } }, call),
      (l) => l.modified,
      (l) => String(l.partNo),
    );
  },

  /** transactionChanges returns the ledger entries recorded at or after since, oldest first. */
  transactionChanges(
    since?: string | Date,
    filter: SyncFilter<TransactionListOptions> = {},
    call?: CallOptions,
  ): Promise<Changes<Transaction>> {
    return changes(
      this,
      since,
      (q) => this.exchange("get", "/api/v1/Inventory/Transactions", { query: { ...filter, ...q } }, call),
      (t) => t.time,
      (t) => String(t.id),
    );
  },
} satisfies ThisType<Client>;

/**
 * changes reads a list in order of modification, from since on.
 *
 * Pages are not read by number alone: a record changed while the sync runs
 * moves to the end of that order and would shift every later page by one, so
 * that a record could be skipped. Instead each page after the first asks again
 * for the records modified since the last one seen, and page numbers only
 * advance through records sharing one timestamp. Records seen again are
 * dropped; a record that changed during the sync is kept in its newer form.
 */
async function changes<T>(
  client: Client,
  since: string | Date | undefined,
  list: (query: SyncQuery) => Promise<Reply<{ value: T[]; hasMore: boolean }>>,
  modified: (record: T) => string,
  key: (record: T) => string,
): Promise<Changes<T>> {
  const latest = new Map<string, { record: T; at: bigint }>(); // in first-seen order
  const start = since === undefined ? undefined : micros(since instanceof Date ? since.toISOString() : since);
  let cursor = start;
  let page = 1;
  let newest: bigint | undefined;
  let serverAt: bigint | undefined;
  for (;;) {
    const query: SyncQuery = { page, pageSize: MAX_PAGE_SIZE, sort: "modified", direction: "ASC" };
    if (cursor !== undefined) query.modifiedSince = rfc3339(cursor);
    const { value: p, headers } = await list(query);
    serverAt ??= serverTime(headers);
    for (const record of p.value) {
      const k = key(record);
      const at = micros(modified(record));
      const seen = latest.get(k);
      if (seen !== undefined && at <= seen.at) continue; // the same version again
      latest.delete(k); // a newer version goes to the end
      latest.set(k, { record, at });
      if (newest === undefined || at > newest) newest = at;
    }
    const last = p.value.at(-1);
    if (!p.hasMore || last === undefined) break;
    const lastAt = micros(modified(last));
    if (cursor === undefined || lastAt > cursor) {
      cursor = lastAt;
      page = 1;
    } else {
      page++;
    }
  }
  let mark = start;
  if (newest !== undefined && serverAt !== undefined) {
    // Just after the newest change, but no later than the settle margin allows.
    let next = newest + 1n;
    const settled = serverAt - BigInt(client.syncSettleMs) * 1000n;
    if (next > settled) next = settled;
    if (mark === undefined || next > mark) mark = next;
  }
  return { records: [...latest.values()].map((v) => v.record), mark: mark === undefined ? undefined : rfc3339(mark) };
}

const TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/i;

/** micros reads an RFC 3339 time (the API's, or a caller's) as microseconds since the epoch. */
function micros(time: string): bigint {
  const m = TIME.exec(time);
  const ms = m === null ? Number.NaN : Date.parse(`${m[1]}${m[3]}`);
  if (m === null || Number.isNaN(ms)) throw new RangeError(`stockroom: ${JSON.stringify(time)} is not an RFC 3339 time`);
  const fraction = (m[2] ?? "").padEnd(6, "0").slice(0, 6);
  return BigInt(ms) * 1000n + BigInt(fraction);
}

/** rfc3339 writes microseconds since the epoch as the API writes times: UTC, fraction only where non-zero. */
function rfc3339(us: bigint): string {
  const seconds = us / 1_000_000n - (us % 1_000_000n < 0n ? 1n : 0n);
  const fraction = (us - seconds * 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${whole}${fraction === "" ? "" : `.${fraction}`}Z`;
}

/** serverTime reads the server's clock from an answer's Date header (not exposed to browsers across origins), else the local one. */
function serverTime(headers: Headers): bigint {
  const at = Date.parse(headers.get("Date") ?? "");
  return BigInt(Number.isNaN(at) ? Date.now() : at) * 1000n;
}
