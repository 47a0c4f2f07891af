-- A typical tool program: list records from one tool, group and total them, call another tool for the top few,
-- format lines, split a string, return a table.
local orders = tools.shop.listOrders({ status = "open" })
local total, byCustomer = 0, {}
for _, o in ipairs(orders) do
  total = total + o.amount
  local c = byCustomer[o.customer]
  if not c then
    c = { name = o.customer, count = 0, amount = 0, items = {} }
    byCustomer[o.customer] = c
  end
  c.count = c.count + 1
  c.amount = c.amount + o.amount
  for _, item in ipairs(o.items) do c.items[item] = (c.items[item] or 0) + 1 end
end
local top = {}
for _, c in pairs(byCustomer) do top[#top + 1] = c end
table.sort(top, function(a, b) return a.amount > b.amount end)
local lines = {}
for i = 1, math.min(3, #top) do
  local c = top[i]
  local tier = tools.shop.getCustomer({ name = c.name }).tier
  lines[#lines + 1] = string.format("%s (%s): %d orders, %.2f", c.name, tier, c.count, c.amount)
end
local ids = {}
for id in (orders[1].id .. "," .. orders[2].id):gmatch("[^,]+") do ids[#ids + 1] = id:upper() end
return { total = total, summary = table.concat(lines, "\n"), ids = ids }
