-- PUT /Item changing the description of random demo items.
local n, token, counter = 0, "", 0
function init(args) token = args[1]; n = tonumber(args[2]); math.randomseed(os.time() + math.random(1e6)) end
function request()
  counter = counter + 1
  local body = string.format('{"shortID":"DEMO-%07d","description":"updated %d"}', math.random(1, n), counter)
  return wrk.format("PUT", "/api/v1/Item", {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end
