-- POST /Inventory/Receive, /Issue or /Move for random demo items and
-- warehouses. Arguments: token, operation (receive|issue|move), items,
-- warehouses.
local token, op, items, whs
function init(args)
  token, op, items, whs = args[1], args[2], tonumber(args[3]), tonumber(args[4])
  math.randomseed(os.time() + math.random(1e6))
end
function request()
  local item = string.format("DEMO-%07d", math.random(1, items))
  local wid = math.random(1, whs)
  local body, path
  if op == "receive" then
    path = "/api/v1/Inventory/Receive"
    body = string.format('{"itemID":"%s","units":5,"wid":%d,"reasonCode":1,"spot":"R-01"}', item, wid)
  elseif op == "issue" then
    path = "/api/v1/Inventory/Issue"
    body = string.format('{"itemID":"%s","units":1,"wid":%d,"reasonCode":20}', item, wid)
  else
    path = "/api/v1/Inventory/Move"
    local to = wid % whs + 1
    body = string.format('{"itemID":"%s","units":1,"wid":%d,"shipToWid":%d,"toSpot":"M-%02d"}', item, wid, to, math.random(0, 20))
  end
  return wrk.format("POST", path, {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end
