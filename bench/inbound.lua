-- Inbound requests for bench/inbound.sh. Arguments: token, operation, and
-- per operation:
--   po ITEMS WAREHOUSES ORDERS LINES: POST /Inventory/Receive against a
--     random line of a random bench purchase order (BENCH-<n>, lines made
--     as inbound.sh makes them);
--   ship ITEMS WAREHOUSES: POST /Inventory/Move of 1 unit of a random item
--     to the next warehouse with a transit slip (a staged transfer);
--   arrive FIRST LAST STEP: POST /Transit/{id}/Receive of the transits
--     from FIRST to LAST, each once, thread i taking FIRST+i-1, then every
--     STEP-th (STEP: the number of threads); once its ids run out a thread
--     asks for transit 0, which is refused (404) and not counted.
local token, op
local items, whs, orders, lines
local first, last, nextid, step = 0, 0, 0, 1
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
function init(args)
  token, op = args[1], args[2]
  if op == "arrive" then
    first, last = tonumber(args[3]), tonumber(args[4])
    step = tonumber(args[5])
    nextid = first + tid - 1
  else
    items, whs = tonumber(args[3]), tonumber(args[4])
    orders, lines = tonumber(args[5] or 0), tonumber(args[6] or 0)
  end
  math.randomseed(os.time() + tid * 7919 + math.random(1e6))
end
local headers = {}
local function post(path, body)
  headers["Content-Type"] = "application/json"
  headers["Authorization"] = "Bearer " .. token
  return wrk.format("POST", path, headers, body)
end
function request()
  if op == "po" then
    local p, l = math.random(1, orders), math.random(1, lines)
    local n = ((p - 1) * lines + l - 1) % items + 1
    local wid = (p + l) % whs + 1
    return post("/api/v1/Inventory/Receive", string.format(
      '{"itemID":"DEMO-%07d","units":5,"wid":%d,"reasonCode":1,"spot":"R-01","poNo":"BENCH-%d","line":%d}', n, wid, p, l))
  elseif op == "ship" then
    local wid = math.random(1, whs)
    return post("/api/v1/Inventory/Move", string.format(
      '{"itemID":"DEMO-%07d","units":1,"wid":%d,"shipToWid":%d,"transitSlip":"BENCH"}', math.random(1, items), wid, wid % whs + 1))
  end
  local id = nextid
  if id > last then id = 0 else nextid = nextid + step end
  return post("/api/v1/Transit/" .. id .. "/Receive", '{"spot":"IN"}')
end
