import type { Client } from "./client.js";
import type { Operation, Query } from "./operations.js";
import type { CallOptions } from "./transport.js";
import type { Event, EventPage } from "./types.js";

/**
 * EventOptions select a read of the change feed: `after` (a page's cursor or
 * an event's id; absent for the start), `limit` (at most 1000), `types`
 * (comma-separated) and `wait` (seconds a read at the end of the feed waits
 * for the next event, at most 60).
 */
export type EventOptions = Query<Operation<"/api/v1/Events", "get">>;

/** The change feed's calls (GET /Events). */
export const eventCalls = {
  /**
   * listEvents reads one page of the change feed: the events after
   * `options.after` that the client sees, oldest first. Send the page's
   * `cursor` as the next `after`. A cursor older than the events the server
   * keeps is a CursorExpiredError (410).
   */
  listEvents(options: EventOptions = {}, call?: CallOptions): Promise<EventPage> {
    return this.request("get", "/api/v1/Events", { query: options }, call);
  },

  /**
   * events follows the feed from `options.after` for as long as the loop
   * runs: every event the client sees, each once, in the feed's one order.
   * Each event's `id` is the cursor just after it: store it with the event's
   * effect and pass it as `after` to resume where you stopped. At the end of
   * the feed it long-polls (`wait`, 30 s when absent). Stop it with `break`
   * or `call.signal`.
   */
  async *events(options: EventOptions = {}, call?: CallOptions): AsyncGenerator<Event, void, undefined> {
    let query: EventOptions = { wait: 30, ...options };
    for (;;) {
      const page = await this.listEvents(query, call);
      yield* page.value;
      query = { ...query, after: page.cursor };
    }
  },
} satisfies ThisType<Client>;
