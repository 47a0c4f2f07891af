// A typical tool program: list records from one tool, group and total them, call another tool for the top few
// (concurrently), format lines, split a string; the value of the last expression is the result.
const orders = await tools.shop.listOrders({ status: "open" })
let total = 0
const byCustomer = {}
for (const o of orders) {
  total += o.amount
  const c = (byCustomer[o.customer] ??= { name: o.customer, count: 0, amount: 0, items: {} })
  c.count++
  c.amount += o.amount
  for (const item of o.items) c.items[item] = (c.items[item] ?? 0) + 1
}
const top = Object.values(byCustomer)
  .sort((a, b) => b.amount - a.amount)
  .slice(0, 3)
const customers = await Promise.all(top.map((c) => tools.shop.getCustomer({ name: c.name })))
const lines = top.map((c, i) => `${c.name} (${customers[i].tier}): ${c.count} orders, ${c.amount.toFixed(2)}`)
const ids = `${orders[0].id},${orders[1].id}`.split(",").map((id) => id.toUpperCase())
;({ total, summary: lines.join("\n"), ids })
