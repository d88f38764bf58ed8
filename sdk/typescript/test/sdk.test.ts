// The SDK against a real server: `stockroom serve` built from this
// repository, on a fresh SQLite database, driven through the SDK as an
// integrator's program would. One server serves every suite but the rate
// limit's, which starts one of its own with a small budget.
import { after } from "node:test";
import { batchTests } from "./suites/batch.js";
import { csvTests } from "./suites/csv.js";
import { decimalTests } from "./suites/decimals.js";
import { errorTests } from "./suites/errors.js";
import { eventTests } from "./suites/events.js";
import { webhookTests } from "./suites/webhooks.js";
import { idempotencyTests } from "./suites/idempotency.js";
import { pagingTests } from "./suites/paging.js";
import { rateLimitTests } from "./suites/ratelimit.js";
import { readmeTests } from "./suites/readme.js";
import { storyTests } from "./suites/story.js";
import { syncTests } from "./suites/sync.js";
import { tokenTests } from "./suites/token.js";
import { startServer } from "./support/server.js";

const server = await startServer("--rate-limit", "1000000", "--webhook-allow-private");
after(() => server.stop());

storyTests(server);
pagingTests(server);
errorTests(server);
batchTests(server);
idempotencyTests(server);
decimalTests(server);
syncTests(server);
tokenTests(server);
readmeTests(server);
eventTests(server);
webhookTests(server);
csvTests(server);
rateLimitTests();
