-- A JSON-shaped transform: filter, map and group 10k records that a tool returned.
local records = get_records()
local groups = {}
local order = {}
for _, r in ipairs(records) do
  if r.active and r.price > 10 then
    local g = groups[r.category]
    if not g then
      g = { category = r.category, count = 0, total = 0, names = {} }
      groups[r.category] = g
      order[#order + 1] = r.category
    end
    g.count = g.count + 1
    g.total = g.total + r.price * r.quantity
    g.names[#g.names + 1] = string.upper(r.name)
    for _, tag in ipairs(r.tags) do
      if tag == "sale" then g.total = g.total - r.price end
    end
  end
end
table.sort(order)
local result = {}
local checksum = 0
for i, category in ipairs(order) do
  local g = groups[category]
  result[i] = { category = category, count = g.count, total = g.total, first = g.names[1] }
  checksum = checksum + g.count * 1000 + g.total + #g.names[#g.names]
end
return checksum
