-- Record transform: build 100k records as tables, read their fields, group and aggregate them, sort the groups.
local regions = { "north", "south", "east", "west", "central" }
local kinds = { "retail", "online", "wholesale" }
local records = {}
local seed = 12345
for i = 1, 100000 do
  seed = seed * 16807 % 2147483647
  records[i] = {
    id = i,
    region = regions[seed % #regions + 1],
    kind = kinds[(seed // 7) % #kinds + 1],
    amount = (seed % 10000) / 100,
    units = seed % 13 + 1,
    refunded = seed % 11 == 0,
  }
end
local groups, keys = {}, {}
for _, r in ipairs(records) do
  if not r.refunded then
    local key = r.region .. "/" .. r.kind
    local g = groups[key]
    if g == nil then
      g = { key = key, count = 0, revenue = 0, units = 0, largest = 0, ids = {} }
      groups[key] = g
      keys[#keys + 1] = key
    end
    g.count = g.count + 1
    g.revenue = g.revenue + r.amount * r.units
    g.units = g.units + r.units
    if r.amount > g.largest then g.largest = r.amount end
    g.ids[#g.ids + 1] = r.id
  end
end
table.sort(keys)
local summary = {}
for i, key in ipairs(keys) do
  local g = groups[key]
  summary[i] = {
    key = key,
    count = g.count,
    average = g.revenue / g.units,
    largest = g.largest,
    first = g.ids[1],
    last = g.ids[#g.ids],
  }
end
local checksum = 0
for _, s in ipairs(summary) do
  checksum = checksum + s.count * 7 + math.floor(s.average * 1000) + math.floor(s.largest * 100) + s.first + s.last + #s.key
end
return checksum
