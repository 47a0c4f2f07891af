-- Lamp report for the demo store: who spends the most on lamps, and a thank-you order for the best customer.
-- Every call goes through a tool generated from examples/store/openapi.yaml.

-- 1. Find the tool that lists orders.
local hits = search({ query = "list orders by status" })
print("search found " .. hits.items[1].path)

-- 2. Look up every lamp.
local lamps = {}
local found = tools.store.products.search({ q = "lamp", limit = 50 })
for _, product in ipairs(found.items) do
  lamps[product.id] = product.name
end
print(found.total .. " lamps in the catalog")

-- 3. Page through paid and shipped orders, adding up lamp spending per customer.
local spend, scanned, pages = {}, 0, 0
local cursor
repeat
  local page = tools.store.orders.list({ status = { "paid", "shipped" }, limit = 20, cursor = cursor })
  pages = pages + 1
  for _, order in ipairs(page.items) do
    scanned = scanned + 1
    for _, line in ipairs(order.items) do
      if lamps[line.productId] then
        spend[order.customerId] = (spend[order.customerId] or 0) + line.quantity * line.unitPriceCents
      end
    end
  end
  cursor = page.nextCursor
  if cursor == json.null then cursor = nil end
until cursor == nil
print(scanned .. " orders read in " .. pages .. " pages")

-- 4. Rank the customers and look up the top three.
local ranking = {}
for customerId, cents in pairs(spend) do
  ranking[#ranking + 1] = { customerId = customerId, cents = cents }
end
table.sort(ranking, function(a, b)
  if a.cents ~= b.cents then return a.cents > b.cents end
  return a.customerId < b.customerId
end)
local top = {}
for i = 1, math.min(3, #ranking) do
  local customer = tools.store.customers.get({ customerId = ranking[i].customerId })
  top[#top + 1] = { name = customer.name, city = customer.city, lampSpend = string.format("$%.2f", ranking[i].cents / 100) }
end

-- 5. A call that fails (no such order), handled with pcall.
local ok, err = pcall(tools.store.orders.get, { orderId = "ord_9999" })
if not ok then print("handled failure: " .. tostring(err)) end

-- 6. The protected operation: the host supplies the staff token; the program never sees it.
local bulbs = tools.store.products.search({ q = "bulb" }).items[1]
local gift = tools.store.orders.create({
  body = { customerId = ranking[1].customerId, items = { { productId = bulbs.id, quantity = 1 } }, note = "Thank you!" },
})

return {
  ordersScanned = scanned,
  topLampCustomers = top,
  missingOrder = ok and "unexpectedly found" or "not found (handled with pcall)",
  giftOrder = { id = gift.id, status = gift.status, total = string.format("$%.2f", gift.totalCents / 100), ["for"] = top[1].name },
}
