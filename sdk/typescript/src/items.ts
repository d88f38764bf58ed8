import type { Client } from "./client.js";
import { StockroomError } from "./errors.js";
import type { Operation, Query } from "./operations.js";
import { walk } from "./paging.js";
import type { CallOptions } from "./transport.js";
import type { Alias, AliasDeleted, AliasPage, Item, ItemCreate, ItemDiscontinued, ItemPage, ItemUpdate, ItemUpdated } from "./types.js";

/** ItemListOptions select a list of items: paging, `sort`, `direction`, `modifiedSince`. */
export type ItemListOptions = Query<Operation<"/api/v1/Item/All", "get">> & {
  /** includeDiscontinued lists every item (GET /Item/All) instead of the active ones (GET /Item). */
  includeDiscontinued?: boolean;
};

/** AliasListOptions select a list of aliases: paging, sorting, and `itemID` (a ShortID). */
export type AliasListOptions = Query<Operation<"/api/v1/Alias", "get">>;

/** The item catalogue's calls (GET/POST/PUT /Item, DELETE /Item/{shortID}, /Alias). */
export const itemCalls = {
  /** listItems returns one page of items, in ShortID order unless sorted otherwise. */
  async listItems(options: ItemListOptions = {}, call?: CallOptions): Promise<ItemPage> {
    const { includeDiscontinued, ...query } = options;
    if (includeDiscontinued === true) return this.request("get", "/api/v1/Item/All", { query }, call);
    const answer = await this.request("get", "/api/v1/Item", { query }, call);
    if (Array.isArray(answer) || !("value" in answer)) throw unexpected("GET /Item", "a page");
    return answer;
  },

  /** items yields every item of the list options select, page by page. */
  items(options: ItemListOptions = {}, call?: CallOptions): AsyncGenerator<Item, void, undefined> {
    return walk(options, (o) => this.listItems(o, call));
  },

  /** getItem returns the item with the given partNo, active or discontinued. */
  getItem(partNo: number, call?: CallOptions): Promise<Item> {
    return this.request("get", "/api/v1/Item/{id}", { params: { id: partNo } }, call);
  },

  /**
   * findItemByShortID returns the item with a ShortID, found regardless of
   * letter case, active or discontinued; an unknown one is a NotFoundError.
   */
  findItemByShortID(shortID: string, call?: CallOptions): Promise<Item> {
    return lookupItem(this, shortID, "id", call);
  },

  /** findItemByAlias returns the item an alias points to; an unknown alias is a NotFoundError. */
  findItemByAlias(alias: string, call?: CallOptions): Promise<Item> {
    return lookupItem(this, alias, "alias", call);
  },

  /** itemsInCategory returns every active item of a category, in ShortID order, as the server sends them: unpaged. */
  async itemsInCategory(category: number, call?: CallOptions): Promise<Item[]> {
    const answer = await this.request("get", "/api/v1/Item", { query: { Category: category } }, call);
    if (!Array.isArray(answer)) throw unexpected("GET /Item?Category=", "an array");
    return answer;
  },

  /**
   * createItem adds an item to the catalogue and returns it with its assigned
   * partNo. A ShortID that exists already (in any letter case) is a
   * ConflictError.
   */
  createItem(item: ItemCreate, call?: CallOptions): Promise<Item> {
    return this.request("post", "/api/v1/Item", { body: item }, call);
  },

  /**
   * updateItem changes the fields given of the item named by shortID. The
   * item's `modified` moves only when a value actually changes.
   */
  updateItem(change: ItemUpdate, call?: CallOptions): Promise<ItemUpdated> {
    return this.request("put", "/api/v1/Item", { body: change }, call);
  },

  /**
   * discontinueItem marks an item discontinued. The record and its stock stay:
   * it leaves listItems (not includeDiscontinued lists), cannot be received any
   * more, and its remaining stock can still be moved and issued. Repeating it
   * succeeds again.
   */
  discontinueItem(shortID: string, call?: CallOptions): Promise<ItemDiscontinued> {
    return this.request("delete", "/api/v1/Item/{id}", { params: { id: shortID } }, call);
  },

  /** listAliases returns one page of aliases, in alias order unless sorted otherwise. */
  listAliases(options: AliasListOptions = {}, call?: CallOptions): Promise<AliasPage> {
    return this.request("get", "/api/v1/Alias", { query: options }, call);
  },

  /** aliases yields every alias of the list options select, page by page. */
  aliases(options: AliasListOptions = {}, call?: CallOptions): AsyncGenerator<Alias, void, undefined> {
    return walk(options, (o) => this.listAliases(o, call));
  },

  /**
   * createAlias makes alias a second name of the item with ShortID itemID, so
   * that findItemByAlias finds it. Aliases are unique regardless of letter
   * case; an existing one is a ConflictError.
   */
  createAlias(alias: string, itemID: string, call?: CallOptions): Promise<Alias> {
    return this.request("post", "/api/v1/Alias", { body: { alias, itemID } }, call);
  },

  /**
   * deleteAlias removes an alias. An unknown alias is a NotFoundError (also
   * when a retry repeats a deletion the server had already carried out).
   */
  deleteAlias(alias: string, call?: CallOptions): Promise<AliasDeleted> {
    return this.request("delete", "/api/v1/Alias/{alias}", { params: { alias } }, call);
  },
} satisfies ThisType<Client>;

async function lookupItem(client: Client, key: string, type: "id" | "alias", call: CallOptions | undefined): Promise<Item> {
  const answer = await client.request("get", "/api/v1/Item", { query: { key, type } }, call);
  if (Array.isArray(answer) || "value" in answer) throw unexpected("GET /Item?key=", "an item");
  return answer;
}

/** unexpected is the error for an answer of another shape than the query asks for. */
export function unexpected(call: string, want: string): StockroomError {
  return new StockroomError(`stockroom: ${call} answered something other than ${want}`);
}
