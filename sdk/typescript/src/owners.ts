import type { Client } from "./client.js";
import type { Operation, Query } from "./operations.js";
import { walk } from "./paging.js";
import type { CallOptions } from "./transport.js";
import type {
  Category,
  CategoryCreate,
  CategoryDiscontinued,
  CategoryPage,
  CategoryUpdate,
  CategoryUpdated,
  Customer,
  CustomerPage,
  ItemDiscontinued,
  ItemUpdated,
  PartyCreate,
  PartyUpdate,
  Vendor,
  VendorPage,
} from "./types.js";

/** MasterListOptions select a list of customers, vendors or categories: paging, sorting, `modifiedSince`. */
export type MasterListOptions = Query<Operation<"/api/v1/Customer", "get">> & {
  /** includeInactive lists every record (GET /X/All) instead of the active ones (GET /X). */
  includeInactive?: boolean;
};

/** The calls of customers, vendors (the parties stock and orders name) and categories. */
export const ownerCalls = {
  /** listCustomers returns one page of customers, in ShortID order unless sorted otherwise. */
  listCustomers(options: MasterListOptions = {}, call?: CallOptions): Promise<CustomerPage> {
    const { includeInactive, ...query } = options;
    return this.request("get", includeInactive === true ? "/api/v1/Customer/All" : "/api/v1/Customer", { query }, call);
  },

  /** customers yields every customer of the list options select, page by page. */
  customers(options: MasterListOptions = {}, call?: CallOptions): AsyncGenerator<Customer, void, undefined> {
    return walk(options, (o) => this.listCustomers(o, call));
  },

  /** getCustomer returns the customer with a ShortID (any letter case), active or not; an unknown one is a NotFoundError. */
  getCustomer(shortID: string, call?: CallOptions): Promise<Customer> {
    return this.request("get", "/api/v1/Customer/{shortID}", { params: { shortID } }, call);
  },

  /** createCustomer adds a customer and returns it with its customerID. A ShortID taken already is a ConflictError. */
  createCustomer(customer: PartyCreate, call?: CallOptions): Promise<Customer> {
    return this.request("post", "/api/v1/Customer", { body: customer }, call);
  },

  /** updateCustomer changes the fields given of the customer named by shortID; `active: true` reactivates it. */
  updateCustomer(change: PartyUpdate, call?: CallOptions): Promise<ItemUpdated> {
    return this.request("put", "/api/v1/Customer", { body: change }, call);
  },

  /** discontinueCustomer sets a customer inactive; repeating it succeeds. */
  discontinueCustomer(shortID: string, call?: CallOptions): Promise<ItemDiscontinued> {
    return this.request("delete", "/api/v1/Customer/{shortID}", { params: { shortID } }, call);
  },

  /** listVendors returns one page of vendors, in ShortID order unless sorted otherwise. */
  listVendors(options: MasterListOptions = {}, call?: CallOptions): Promise<VendorPage> {
    const { includeInactive, ...query } = options;
    return this.request("get", includeInactive === true ? "/api/v1/Vendor/All" : "/api/v1/Vendor", { query }, call);
  },

  /** vendors yields every vendor of the list options select, page by page. */
  vendors(options: MasterListOptions = {}, call?: CallOptions): AsyncGenerator<Vendor, void, undefined> {
    return walk(options, (o) => this.listVendors(o, call));
  },

  /** getVendor returns the vendor with a ShortID (any letter case), active or not; an unknown one is a NotFoundError. */
  getVendor(shortID: string, call?: CallOptions): Promise<Vendor> {
    return this.request("get", "/api/v1/Vendor/{shortID}", { params: { shortID } }, call);
  },

  /** createVendor adds a vendor and returns it with its vendorID. */
  createVendor(vendor: PartyCreate, call?: CallOptions): Promise<Vendor> {
    return this.request("post", "/api/v1/Vendor", { body: vendor }, call);
  },

  /** updateVendor changes the fields given of the vendor named by shortID; `active: true` reactivates it. */
  updateVendor(change: PartyUpdate, call?: CallOptions): Promise<ItemUpdated> {
    return this.request("put", "/api/v1/Vendor", { body: change }, call);
  },

  /** discontinueVendor sets a vendor inactive; repeating it succeeds. */
  discontinueVendor(shortID: string, call?: CallOptions): Promise<ItemDiscontinued> {
    return this.request("delete", "/api/v1/Vendor/{shortID}", { params: { shortID } }, call);
  },

  /** listCategories returns one page of categories, in categoryID order unless sorted otherwise. */
  listCategories(options: MasterListOptions = {}, call?: CallOptions): Promise<CategoryPage> {
    const { includeInactive, ...query } = options;
    return this.request("get", includeInactive === true ? "/api/v1/Category/All" : "/api/v1/Category", { query }, call);
  },

  /** categories yields every category of the list options select, page by page. */
  categories(options: MasterListOptions = {}, call?: CallOptions): AsyncGenerator<Category, void, undefined> {
    return walk(options, (o) => this.listCategories(o, call));
  },

  /** getCategory returns the category with an id, active or not. */
  getCategory(id: number, call?: CallOptions): Promise<Category> {
    return this.request("get", "/api/v1/Category/{id}", { params: { id } }, call);
  },

  /**
   * createCategory adds a category; without a categoryID it takes the next id
   * after the largest. An id that exists is a ConflictError.
   */
  createCategory(category: CategoryCreate, call?: CallOptions): Promise<Category> {
    return this.request("post", "/api/v1/Category", { body: category }, call);
  },

  /** updateCategory changes the fields given of the category categoryID names. */
  updateCategory(change: CategoryUpdate, call?: CallOptions): Promise<CategoryUpdated> {
    return this.request("put", "/api/v1/Category", { body: change }, call);
  },

  /** discontinueCategory sets a category inactive; its items keep it. */
  discontinueCategory(id: number, call?: CallOptions): Promise<CategoryDiscontinued> {
    return this.request("delete", "/api/v1/Category/{id}", { params: { id } }, call);
  },
} satisfies ThisType<Client>;
