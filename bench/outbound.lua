-- Outbound requests for bench/outbound.sh. Arguments: token, operation, and
-- per operation:
--   create ITEMS WAREHOUSES STEP: POST /ShippingOrder placing BENCH-<n>, one
--     line of 1 unit of a random demo item from a random warehouse; thread i
--     places n = i, then every STEP-th (STEP: the number of threads), for as
--     long as wrk runs;
--   commit|pack|ship FIRST LAST STEP: POST /ShippingOrder/BENCH-<n>/Commit
--     (every line), /Pack (1 unit of line 1) or /Ship (everything committed
--     or packed) for n from FIRST to LAST, each once, thread i taking
--     FIRST+i-1, then every STEP-th; once its numbers run out a thread asks
--     for BENCH-0, which is refused (404) and not counted.
local token, op
local items, whs
local first, last, nextno, step = 0, 0, 0, 1
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
function init(args)
  token, op = args[1], args[2]
  if op == "create" then
    items, whs, step = tonumber(args[3]), tonumber(args[4]), tonumber(args[5])
    nextno = tid
  else
    first, last, step = tonumber(args[3]), tonumber(args[4]), tonumber(args[5])
    nextno = first + tid - 1
  end
  math.randomseed(os.time() + tid * 7919 + math.random(1e6))
end
local headers = {}
local function post(path, body)
  headers["Content-Type"] = "application/json"
  headers["Authorization"] = "Bearer " .. token
  return wrk.format("POST", path, headers, body)
end
local bodies = {commit = "{}", pack = '{"lines":[{"line":1,"units":1}]}', ship = "{}"}
local actions = {commit = "Commit", pack = "Pack", ship = "Ship"}
function request()
  local n = nextno
  nextno = nextno + step
  if op == "create" then
    return post("/api/v1/ShippingOrder", string.format(
      '{"soNo":"BENCH-%d","customerID":"BENCH-C","lines":[{"itemID":"DEMO-%07d","units":1,"warehouse":%d}]}',
      n, math.random(1, items), math.random(1, whs)))
  end
  if n > last then n = 0 end
  return post("/api/v1/ShippingOrder/BENCH-" .. n .. "/" .. actions[op], bodies[op])
end
