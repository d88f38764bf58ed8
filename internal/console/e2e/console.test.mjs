// The console end to end: a real `stockroom serve` on a fresh SQLite file,
// driven in Debian's headless Chromium by Playwright (no browser download),
// with axe-core run inside the page on every screen. Screenshots of each
// screen go to ./screenshots (git-ignored), for a person to look at.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const shots = fileURLToPath(new URL("./screenshots/", import.meta.url));
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let server, browser, bin, dbPath;
const dir = mkdtempSync(join(tmpdir(), "stockroom-console-e2e-"));

before(async () => {
  mkdirSync(shots, { recursive: true });
  bin = process.env.STOCKROOM_BIN || join(dir, "stockroom");
  if (!process.env.STOCKROOM_BIN) execFileSync("go", ["build", "-o", bin, "./cmd/stockroom"], { cwd: repoRoot });
  dbPath = join(dir, "stockroom.db");
  server = await startServer(bin, dbPath);
  const executablePath = execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
  browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
});

after(async () => {
  await browser?.close();
  if (server) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

// startServer runs serve on a free loopback port and reads the first
// start's administrator credential.
async function startServer(bin, db) {
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--db", `sqlite:${db}`, "--rate-limit", "100000"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "", err = "";
  child.stdout.setEncoding("utf8").on("data", (c) => (out += c));
  child.stderr.setEncoding("utf8").on("data", (c) => (err += c));
  const exited = once(child, "exit");
  const deadline = Date.now() + 60_000;
  for (;;) {
    const addr = /"msg":"listening"[^\n]*"addr":"([^"]+)"/.exec(err)?.[1];
    const id = /client_id=(\S+)/.exec(out)?.[1];
    const secret = /client_secret=(\S+)/.exec(out)?.[1];
    if (addr && id && secret) return { url: `http://${addr}`, id, secret, child, exited };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start:\n${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// api calls the JSON API as the administrator.
async function api(method, path, body) {
  const tok = await fetch(`${server.url}/api/v1/Token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: server.id, client_secret: server.secret }),
  }).then((r) => r.json());
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${tok.access_token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// newPage opens a browser context of its own (its own cookies) and fails
// the test on anything the page's Content-Security-Policy refuses.
async function newPage(viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.refused = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) page.refused.push(m.text());
  });
  return page;
}

// screen takes a screenshot and runs axe-core in the page (through the
// DevTools protocol, which the page's CSP does not govern): no critical
// violations.
async function screen(page, name) {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => (await globalThis.axe.run(document, { resultTypes: ["violations"] })).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })));
  const critical = violations.filter((v) => v.impact === "critical");
  assert.deepEqual(critical, [], `${name}: critical axe-core violations ${JSON.stringify(critical)}`);
  for (const v of violations) console.log(`# axe ${name}: ${v.impact} ${v.id} (${v.nodes})`);
  assert.deepEqual(page.refused, [], `${name}: refused by the CSP`);
}

async function signIn(page, id, secret) {
  await page.goto(`${server.url}/console`);
  assert.match(page.url(), /\/console\/signin\?next=/);
  await page.getByLabel("Client id").fill(id);
  await page.getByLabel("Client secret").fill(secret);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/console\/levels/);
}

// field finds an input by its label, as a person reads it (a required
// field's label ends in an asterisk).
function field(page, label) {
  return page.getByLabel(new RegExp(`^${label}( \\*)?$`));
}

async function figure(page, item, name) {
  return (await page.locator(`tr[data-item="${item}"] [data-figure="${name}"]`).textContent())?.trim();
}

async function submitForm(page, op, fields, reason) {
  await page.goto(`${server.url}/console/stock/${op}`);
  for (const [label, value] of Object.entries(fields)) await field(page, label).fill(value);
  if (reason) await page.getByLabel("Reason code").selectOption(reason);
  const [res] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByRole("button", { name: new RegExp(`^${op}$`, "i") }).click()]);
  await page.waitForLoadState();
  return res.status();
}

test("the console, end to end", async (t) => {
  await api("POST", "/Item", { shortID: "BOLT-M8", description: "Hex bolt M8" });
  await api("POST", "/Customer", { shortID: "ACME", name: "Acme Logistics" });
  const beta = await api("POST", "/Customer", { shortID: "BETA", name: "Beta Goods" });
  const page = await newPage();

  await t.test("sign in", async () => {
    await page.goto(`${server.url}/console/levels`);
    await screen(page, "01-signin");
    await page.getByLabel("Client id").fill(server.id);
    await page.getByLabel("Client secret").fill("not the secret");
    await page.getByRole("button", { name: "Sign in" }).click();
    assert.match(await page.locator("#signin-error").textContent(), /Invalid client credentials/);
    await signIn(page, server.id, server.secret);
    assert.match(await page.locator(".empty").textContent(), /No stock matches/);
    await screen(page, "02-levels-empty");
  });

  await t.test("receive into a bin, and see the level", async () => {
    assert.equal(await submitForm(page, "receive", { Item: "BOLT-M8", Units: "500", Warehouse: "1", Bin: "A-01" }, "1"), 303);
    assert.match(await page.locator(".flash").textContent(), /Receive done/);
    assert.equal(await figure(page, "BOLT-M8", "inStock"), "500");
    assert.equal(await figure(page, "BOLT-M8", "available"), "500");
    await screen(page, "03-levels-after-receive");
  });

  await t.test("move and issue", async () => {
    assert.equal(await submitForm(page, "move", { Item: "BOLT-M8", Units: "100", Warehouse: "1", "From bin": "A-01", "To bin": "B-07" }), 303);
    assert.equal(await submitForm(page, "issue", { Item: "BOLT-M8", Units: "12.5", Warehouse: "1", Bin: "A-01" }, "20"), 303);
    assert.equal(await figure(page, "BOLT-M8", "inStock"), "487.5");
    await page.getByRole("link", { name: "BOLT-M8" }).click();
    const lots = await page.locator("#live table").first().textContent();
    assert.match(lots, /A-01\s*0\s*387\.5/);
    assert.match(lots, /B-07\s*0\s*100/);
    assert.equal(await page.locator("#live table").nth(1).locator("tbody tr").count(), 3);
    await screen(page, "04-item");
  });

  await t.test("a 409 beside the form", async () => {
    assert.equal(await submitForm(page, "issue", { Item: "BOLT-M8", Units: "10000", Warehouse: "1" }, "20"), 409);
    assert.match(await page.locator("#page-error").textContent(), /Insufficient stock: 10000 units requested, 487\.5 available/);
    assert.equal(await field(page, "Units").inputValue(), "10000");
    assert.equal(await submitForm(page, "receive", { Item: "BOLT-M8", Units: "many", Warehouse: "1" }), 400);
    assert.match(await page.locator("#e-units").textContent(), /number/);
    assert.match(await page.locator("#e-reasonCode").textContent(), /required/);
    assert.equal(await field(page, "Units").getAttribute("aria-invalid"), "true");
    await screen(page, "05-form-refused");
  });

  await t.test("a shipping order committed, packed and shipped", async () => {
    await page.goto(`${server.url}/console/shipping`);
    assert.match(await page.locator("#live").textContent(), /No shipping orders yet/);
    await field(page, "Customer").fill("ACME");
    await field(page, "Item").fill("BOLT-M8");
    await field(page, "Units").fill("30");
    await field(page, "Warehouse").fill("1");
    await page.getByRole("button", { name: "Place order" }).click();
    await page.waitForURL(/\/console\/shipping\/SO-000001/);
    for (const [action, column] of [["Commit", 4], ["Pack", 5], ["Ship", 6]]) {
      await page.getByRole("button", { name: action, exact: true }).click();
      await page.waitForLoadState();
      assert.match(await page.locator(".flash").textContent(), new RegExp(`${action} done`));
      assert.equal((await page.locator("#live tbody tr td").nth(column).textContent()).trim(), "30", `${action}: line figure`);
    }
    assert.match(await page.locator("#order-status").textContent(), /Shipped|Closed/);
    await screen(page, "06-shipping-order");
    await page.goto(`${server.url}/console/levels?item=BOLT-M8`);
    assert.equal(await figure(page, "BOLT-M8", "inStock"), "457.5");
    assert.equal(await figure(page, "BOLT-M8", "committed"), "0");
  });

  await t.test("a report downloaded as CSV", async () => {
    await page.goto(`${server.url}/console/reports`);
    await screen(page, "07-reports");
    const row = page.locator("tr", { hasText: "Stock Valuation" });
    const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("button", { name: "CSV" }).click()]);
    const csv = readFileSync(await download.path(), "utf8");
    const lines = csv.trim().split("\n");
    assert.equal(lines[0], "partNo,itemID,wid,units,unitCost,totalValue");
    assert.ok(lines.some((l) => l.startsWith("1,BOLT-M8,1,457.5,")), csv);
  });

  await t.test("another browser's change appears live", async () => {
    await page.goto(`${server.url}/console/levels?item=BOLT-M8`);
    await page.waitForSelector("body[data-live-state=open]");
    await screen(page, "08-levels-live");
    const other = await newPage({ width: 820, height: 1180 }); // a tablet
    await signIn(other, server.id, server.secret);
    await screen(other, "09-levels-tablet");
    // The bound is loose for a loaded CI machine; the log says how long it took.
    let start = Date.now();
    const changed = page.waitForFunction(() => document.querySelector('tr[data-item="BOLT-M8"] [data-figure="inStock"]')?.textContent === "499.5", null, { timeout: 3000 });
    other.on("response", (r) => { if (r.request().method() === "POST") start = Date.now(); });
    assert.equal(await submitForm(other, "receive", { Item: "BOLT-M8", Units: "42", Warehouse: "1", Bin: "C-03" }, "4"), 303);
    await changed;
    console.log(`# live: another browser's receipt on screen ${Date.now() - start} ms after it was answered`);
    start = Date.now();
    await api("POST", "/Inventory/Issue", { itemID: "BOLT-M8", units: 9.5, wid: 1, reasonCode: 20 });
    await page.waitForFunction(() => document.querySelector('tr[data-item="BOLT-M8"] [data-figure="inStock"]')?.textContent === "490", null, { timeout: 3000 });
    console.log(`# live: an API issue on screen ${Date.now() - start} ms after it was answered`);
    await other.context().close();
  });

  await t.test("a client limited to one owner sees nothing of another", async () => {
    await api("POST", "/Inventory/Receive", { itemID: "BOLT-M8", units: 3, wid: 1, reasonCode: 1, owner: "BETA", spot: "Z-09" });
    const out = execFileSync(bin, ["client", "add", "--db", `sqlite:${dbPath}`, "--name", "Beta portal", "--permissions", "all", "--warehouses", "all", "--owners", String(beta.customerID), "--reports", "all"], { encoding: "utf8" });
    const id = /client_id=(\S+)/.exec(out)[1], secret = /client_secret=(\S+)/.exec(out)[1];
    const portal = await newPage();
    await signIn(portal, id, secret);
    assert.equal(await figure(portal, "BOLT-M8", "inStock"), "3");
    await screen(portal, "10-owner-limited-levels");
    await portal.goto(`${server.url}/console/levels?owner=ACME`);
    assert.match(await portal.locator("#page-error").textContent(), /Owner is outside the client's authorized scope/);
    await portal.goto(`${server.url}/console/item/BOLT-M8`);
    const lots = await portal.locator("#live").textContent();
    assert.doesNotMatch(lots, /A-01|B-07|C-03/);
    assert.match(lots, /Z-09/);
    await portal.goto(`${server.url}/console/shipping`);
    assert.match(await portal.locator("#live").textContent(), /No shipping orders yet/);
    await screen(portal, "11-owner-limited-shipping");
    await portal.context().close();
  });

  await t.test("a form posted without the console's token is refused", async () => {
    const res = await page.request.post(`${server.url}/console/stock/receive`, {
      form: { itemID: "BOLT-M8", units: "1000", wid: "1", reasonCode: "1" },
      headers: { Origin: server.url },
      maxRedirects: 0,
    });
    assert.equal(res.status(), 403);
    assert.match(await res.text(), /missing its console token/);
    const forged = await page.request.post(`${server.url}/console/stock/receive`, {
      form: { itemID: "BOLT-M8", units: "1000", wid: "1", reasonCode: "1", csrf: "0".repeat(32) },
      headers: { Origin: "https://evil.example" },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    await page.goto(`${server.url}/console/levels?item=BOLT-M8`);
    assert.equal(await figure(page, "BOLT-M8", "inStock"), "493");
  });

  await t.test("the other screens: purchasing, work orders, transits, webhooks, administration", async () => {
    for (const [path, name] of [["purchase", "12-purchase"], ["work", "13-work"], ["transits", "14-transits"], ["webhooks", "15-webhooks"]]) {
      await page.goto(`${server.url}/console/${path}`);
      await screen(page, name);
    }
    await page.goto(`${server.url}/console/admin`);
    await page.getByLabel("Client name").fill("Scanner 2");
    await page.getByLabel("Permissions", { exact: true }).last().fill("11,95");
    await page.getByLabel("Warehouses", { exact: true }).last().fill("1");
    await page.getByRole("button", { name: "Create client" }).click();
    await page.waitForLoadState();
    assert.match(await page.locator("#new-secret").textContent(), /client_secret=/);
    await screen(page, "16-admin");
  });

  await t.test("sign out", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/console\/signin/);
    await page.goto(`${server.url}/console/levels`);
    assert.match(page.url(), /\/console\/signin\?next=/);
    const cookies = await page.context().cookies();
    assert.equal(cookies.filter((c) => c.name === "stockroom_console").length, 0);
  });
  await page.context().close();
});
