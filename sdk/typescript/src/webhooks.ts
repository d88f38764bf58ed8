import type { Client } from "./client.js";
import type { Operation, Query } from "./operations.js";
import { walk } from "./paging.js";
import type { CallOptions } from "./transport.js";
import type { Webhook, WebhookCreate, WebhookDelivery, WebhookDeliveryPage, WebhookPage, WebhookUpdate } from "./types.js";

/** WebhookListOptions page and sort the client's own subscriptions. */
export type WebhookListOptions = Query<Operation<"/api/v1/Webhook", "get">>;
/** WebhookLogOptions page a subscription's delivery log. */
export type WebhookLogOptions = Query<Operation<"/api/v1/Webhook/{id}/log", "get">>;

/** The webhook calls (permission 370): the client's own subscriptions only. */
export const webhookCalls = {
  /** listWebhooks returns one page of the client's subscriptions. */
  listWebhooks(options: WebhookListOptions = {}, call?: CallOptions): Promise<WebhookPage> {
    return this.request("get", "/api/v1/Webhook", { query: options }, call);
  },

  /** webhooks yields every subscription of the client, page by page. */
  webhooks(options: WebhookListOptions = {}, call?: CallOptions): AsyncGenerator<Webhook, void, undefined> {
    return walk(options, (o) => this.listWebhooks(o, call));
  },

  /** getWebhook returns one subscription; another client's is a NotFoundError. */
  getWebhook(id: number, call?: CallOptions): Promise<Webhook> {
    return this.request("get", "/api/v1/Webhook/{id}", { params: { id } }, call);
  },

  /**
   * createWebhook subscribes a URL to event types (`*` for all); the answer
   * carries the signing `secret`, shown this once: keep it to verify
   * deliveries (Stockroom-Signature).
   */
  createWebhook(webhook: WebhookCreate, call?: CallOptions): Promise<Webhook> {
    return this.request("post", "/api/v1/Webhook", { body: webhook }, call);
  },

  /**
   * updateWebhook changes the fields given; `rotateSecret: true` answers a
   * new secret, and `active: true` on a disabled subscription resumes from
   * the first event not delivered.
   */
  updateWebhook(id: number, change: WebhookUpdate, call?: CallOptions): Promise<Webhook> {
    return this.request("put", "/api/v1/Webhook/{id}", { params: { id }, body: change }, call);
  },

  /** deleteWebhook removes a subscription and its delivery state. */
  async deleteWebhook(id: number, call?: CallOptions): Promise<void> {
    await this.request("delete", "/api/v1/Webhook/{id}", { params: { id } }, call);
  },

  /** testWebhook sends a signed test payload now and answers the attempt. */
  testWebhook(id: number, call?: CallOptions): Promise<WebhookDelivery> {
    return this.request("post", "/api/v1/Webhook/{id}/test", { params: { id } }, call);
  },

  /** webhookLog returns one page of a subscription's delivery attempts of the last 7 days. */
  webhookLog(id: number, options: WebhookLogOptions = {}, call?: CallOptions): Promise<WebhookDeliveryPage> {
    return this.request("get", "/api/v1/Webhook/{id}/log", { params: { id }, query: options }, call);
  },
} satisfies ThisType<Client>;
