-- GET /Item?key=DEMO-nnnnnnn&type=id for random demo items.
local n
function init(args) n = tonumber(args[1]); math.randomseed(os.time() + math.random(1e6)) end
function request()
  return wrk.format("GET", string.format("/api/v1/Item?key=DEMO-%07d&type=id", math.random(1, n)))
end
