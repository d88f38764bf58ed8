-- POST /Inventory/Receive, /Issue or /Move for random demo items and
-- warehouses. Arguments: token, operation (receive|issue|move), items,
-- warehouses, and optionally owners: a comma-separated list of owner ids,
-- one of which each request names at random ("" or absent: no owner field,
-- for a build without owners). With KEYS=1 in the environment every
-- request carries an Idempotency-Key of its own, as a careful client's do.
-- (On a PostgreSQL with autovacuum off, as on the development machines, a
-- fresh database's idempotency_keys was analyzed empty, and connections
-- that plan the key's lookup then keep a plan that reads the whole table as
-- it grows: analyze it with some rows in before comparing builds.)
local token, op, items, whs
local keys = os.getenv("KEYS") == "1"
local sent, run = 0, ""
local owners = {}
-- Each of wrk's threads runs its own Lua state, whose generator starts from
-- the same state: seeded from the clock alone, the threads would send the
-- same requests in step, and every request would contend for its twin's rows.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
function init(args)
  token, op, items, whs = args[1], args[2], tonumber(args[3]), tonumber(args[4])
  for o in string.gmatch(args[5] or "", "%d+") do owners[#owners + 1] = o end
  math.randomseed(os.time() * 1000 + id)
  run = string.format("%x-%x", os.time(), math.random(0, 2147483647)) -- keys unique across runs
end
local function owner()
  if #owners == 0 then return "" end
  return ',"owner":' .. owners[math.random(1, #owners)]
end
function request()
  local item = string.format("DEMO-%07d", math.random(1, items))
  local wid = math.random(1, whs)
  local body, path
  if op == "receive" then
    path = "/api/v1/Inventory/Receive"
    body = string.format('{"itemID":"%s","units":5,"wid":%d,"reasonCode":1,"spot":"R-01"%s}', item, wid, owner())
  elseif op == "issue" then
    path = "/api/v1/Inventory/Issue"
    body = string.format('{"itemID":"%s","units":1,"wid":%d,"reasonCode":20%s}', item, wid, owner())
  else
    path = "/api/v1/Inventory/Move"
    local to = wid % whs + 1
    body = string.format('{"itemID":"%s","units":1,"wid":%d,"shipToWid":%d,"toSpot":"M-%02d"%s}', item, wid, to, math.random(0, 20), owner())
  end
  local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}
  if keys then
    sent = sent + 1
    headers["Idempotency-Key"] = string.format("bench-%s-%d-%d", run, id, sent)
  end
  return wrk.format("POST", path, headers, body)
end
