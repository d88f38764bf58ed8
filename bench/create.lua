-- POST /Item with a new ShortID each time: run id, thread and counter.
-- tid is a global: setup() sets it in each thread's own Lua state.
local counter, run, token = 0, "", ""
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
function init(args) token = args[1]; run = args[2] end
function request()
  counter = counter + 1
  local body = string.format('{"shortID":"B-%s-%d-%d","description":"bench item","uOM":"EA","category":7,"units":1.5}', run, tid, counter)
  return wrk.format("POST", "/api/v1/Item", {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end
