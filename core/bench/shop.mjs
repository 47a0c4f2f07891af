// The two tools of the typical tool program the benches run (lang-lua's bench/lua/tool-program.lua, lang-js's
// bench/tool-program.js): orders listed by status (60 orders) and a customer looked up by name.

/** The `shop` namespace of the tool program. */
export const shopTools = async () => {
  const { Tool } = await import("@codemode/core")
  const { Effect, Schema } = await import("effect")
  const Order = Schema.Struct({
    id: Schema.String,
    customer: Schema.String,
    amount: Schema.Number,
    status: Schema.String,
    items: Schema.Array(Schema.String),
  })
  const orders = Array.from({ length: 60 }, (_, i) => ({
    id: `order_${i}`,
    customer: ["ada", "bob", "cy", "dee", "eve"][i % 5],
    amount: ((i * 37) % 500) / 4,
    status: i % 3 ? "open" : "shipped",
    items: i % 2 ? ["book", "pen"] : ["lamp"],
  }))
  return {
    listOrders: Tool.make({
      description: "List orders by status",
      input: Schema.Struct({ status: Schema.String }),
      output: Schema.Array(Order),
      execute: ({ status }) => Effect.succeed(orders.filter((o) => o.status === status)),
    }),
    getCustomer: Tool.make({
      description: "Look up a customer",
      input: Schema.Struct({ name: Schema.String }),
      output: Schema.Struct({ name: Schema.String, tier: Schema.String }),
      execute: ({ name }) => Effect.succeed({ name, tier: name.length > 2 ? "gold" : "basic" }),
    }),
  }
}
