import type { Client } from "./client.js";
import type { Operation, Query } from "./operations.js";
import { walk } from "./paging.js";
import type { CallOptions } from "./transport.js";
import type { Transaction, TransactionPage } from "./types.js";

/**
 * TransactionListOptions select part of the ledger: paging, sorting,
 * `modifiedSince`, and the filters `itemID` (its own entries and the assemble
 * entries it is a component of), `wid` (from or to), `type` and `owner`.
 */
export type TransactionListOptions = Query<Operation<"/api/v1/Inventory/Transactions", "get">>;

/** The ledger's calls (GET /Inventory/Transactions). */
export const ledgerCalls = {
  /**
   * listTransactions returns one page of the ledger (every stock change, with
   * its signed units per lot), newest first unless sorted otherwise; only
   * entries touching a warehouse in the client's scope.
   */
  listTransactions(options: TransactionListOptions = {}, call?: CallOptions): Promise<TransactionPage> {
    return this.request("get", "/api/v1/Inventory/Transactions", { query: options }, call);
  },

  /** transactions yields every ledger entry of the list options select, page by page. */
  transactions(options: TransactionListOptions = {}, call?: CallOptions): AsyncGenerator<Transaction, void, undefined> {
    return walk(options, (o) => this.listTransactions(o, call));
  },

  /** getTransaction returns one ledger entry with its lines, such as the one a receive, issue or move answer names. */
  getTransaction(id: number, call?: CallOptions): Promise<Transaction> {
    return this.request("get", "/api/v1/Inventory/Transactions/{id}", { params: { id } }, call);
  },
} satisfies ThisType<Client>;
