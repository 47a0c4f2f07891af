/**
 * The demo store: a small, real HTTP API on loopback, described by ./openapi.yaml.
 *
 * Products with text search, customers, orders with cursor pagination and status filters, and one operation
 * (placing an order) that needs a bearer token. The data is generated deterministically, so every run starts from
 * the same shop.
 *
 *   node examples/store/server.mjs            # listens on 127.0.0.1:4010, token from STORE_TOKEN
 *   import { startStore } from "./server.mjs" # { url, close } on a free port
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"

const documentPath = fileURLToPath(new URL("./openapi.yaml", import.meta.url))

const categories = ["lighting", "furniture", "kitchen", "garden"]
const statuses = ["pending", "paid", "shipped", "cancelled"]

const seedProducts = [
  [
    "Arc floor lamp",
    "lighting",
    18900,
    "Tall brushed-steel arc lamp with a linen shade.",
    ["lamp", "floor", "living room"],
  ],
  ["Brass desk lamp", "lighting", 7900, "Adjustable desk lamp in solid brass.", ["lamp", "desk", "office"]],
  ["Paper pendant light", "lighting", 4500, "Rice-paper pendant, 60 cm.", ["pendant", "ceiling"]],
  ["Solar garden lamp", "lighting", 2900, "Solar-powered path lamp, set of two.", ["lamp", "outdoor", "solar"]],
  ["Reading lamp", "lighting", 5900, "Clip-on LED reading lamp with dimmer.", ["lamp", "led", "bedroom"]],
  ["LED bulb pack", "lighting", 1200, "Four warm-white E27 LED bulbs.", ["bulb", "led"]],
  ["Oak dining table", "furniture", 89000, "Solid oak table for six.", ["table", "oak", "dining"]],
  ["Linen sofa", "furniture", 129000, "Three-seat sofa with washable linen covers.", ["sofa", "living room"]],
  ["Walnut bookshelf", "furniture", 34900, "Five shelves in walnut veneer.", ["shelf", "walnut", "office"]],
  ["Bar stool", "furniture", 8900, "Powder-coated steel stool.", ["stool", "kitchen"]],
  ["Cast-iron skillet", "kitchen", 4900, "28 cm pre-seasoned skillet.", ["pan", "cast iron"]],
  ["Chef's knife", "kitchen", 11900, "20 cm stainless chef's knife.", ["knife", "steel"]],
  ["Pour-over kettle", "kitchen", 6900, "Gooseneck kettle with thermometer.", ["kettle", "coffee"]],
  ["Stoneware mugs", "kitchen", 3600, "Set of four glazed mugs.", ["mug", "coffee", "stoneware"]],
  ["Herb planter", "garden", 3900, "Self-watering planter for three herbs.", ["planter", "herbs"]],
  ["Garden hose", "garden", 4200, "25 m kink-free hose.", ["hose", "watering"]],
  ["Teak bench", "garden", 45900, "Weatherproof teak garden bench.", ["bench", "teak", "outdoor"]],
  ["Pruning shears", "garden", 2900, "Bypass shears with steel blades.", ["shears", "tools"]],
]

const seedCustomers = [
  ["Ada Lovelace", "London", "2023-02-11"],
  ["Grace Hopper", "New York", "2022-11-03"],
  ["Alan Turing", "Manchester", "2023-06-21"],
  ["Katherine Johnson", "Hampton", "2024-01-15"],
  ["Edsger Dijkstra", "Eindhoven", "2022-08-30"],
  ["Barbara Liskov", "Boston", "2023-09-09"],
  ["Donald Knuth", "Stanford", "2024-03-02"],
  ["Margaret Hamilton", "Boston", "2022-12-24"],
]

/** A small deterministic pseudo-random generator (a linear congruential generator). */
const generator = (seed) => {
  let state = seed >>> 0
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state % n
  }
}

/** Build the shop's data: products, customers and 60 orders, the same every time. */
export const seedData = () => {
  const products = seedProducts.map(([name, category, priceCents, description, tags], i) => ({
    id: `prd_${String(i + 1).padStart(3, "0")}`,
    name,
    description,
    category,
    priceCents,
    stock: 5 + ((i * 7) % 40),
    tags,
  }))
  const customers = seedCustomers.map(([name, city, since], i) => ({
    id: `cus_${String(i + 1).padStart(3, "0")}`,
    name,
    email: `${name.split(" ")[0].toLowerCase()}@example.test`,
    city,
    since,
  }))
  const random = generator(42)
  const orders = []
  const start = Date.UTC(2025, 0, 1)
  for (let i = 0; i < 60; i++) {
    const lines = []
    const count = 1 + random(3)
    for (let j = 0; j < count; j++) {
      const product = products[random(products.length)]
      if (lines.some((line) => line.productId === product.id)) continue
      lines.push({ productId: product.id, quantity: 1 + random(3), unitPriceCents: product.priceCents })
    }
    const status = i < 52 ? statuses[1 + random(2)] : statuses[random(4)]
    orders.push({
      id: `ord_${String(i + 1).padStart(4, "0")}`,
      customerId: customers[random(customers.length)].id,
      status: random(10) === 0 ? "cancelled" : status,
      items: lines,
      totalCents: lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0),
      createdAt: new Date(start + i * 36 * 3600 * 1000).toISOString(),
    })
  }
  return { products, customers, orders }
}

class HttpError extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

const integerParam = (params, name, { min, max, fallback }) => {
  const raw = params.get(name)
  if (raw === null) return fallback
  const value = Number(raw)
  if (!/^-?\d+$/.test(raw) || value < min || (max !== undefined && value > max))
    throw new HttpError(
      400,
      `${name} must be a whole number${max !== undefined ? ` from ${min} to ${max}` : ` of at least ${min}`}`,
    )
  return value
}

const matchesWords = (text, query) => {
  const haystack = text.toLowerCase()
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word) || haystack.includes(word.replace(/s$/, "")))
}

const page = (items, offset, limit) => ({
  items: items.slice(offset, offset + limit),
  total: items.length,
  nextOffset: offset + limit < items.length ? offset + limit : null,
})

const encodeCursor = (offset) => Buffer.from(JSON.stringify({ offset })).toString("base64url")
const decodeCursor = (cursor) => {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    if (Number.isInteger(offset) && offset >= 0) return offset
  } catch {}
  throw new HttpError(400, "cursor is not a cursor this server issued")
}

/** A 1×1 PNG, the "photo" of every product. */
const pixel = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
)

const readJson = (request) =>
  new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    request.on("data", (chunk) => {
      size += chunk.length
      if (size > 64 * 1024) reject(new HttpError(413, "request body over 64 KiB"))
      else chunks.push(chunk)
    })
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch {
        reject(new HttpError(400, "the request body is not valid JSON"))
      }
    })
    request.on("error", reject)
  })

/** Create the request handler over fresh seed data. `token` guards `POST /orders`. */
export const createStore = ({ token }) => {
  const { products, customers, orders } = seedData()
  const subscribers = new Set()
  let nextOrder = orders.length + 1

  const findOr404 = (list, id, what) => {
    const found = list.find((item) => item.id === id)
    if (!found) throw new HttpError(404, `no ${what} with id ${id}`)
    return found
  }

  const placeOrder = (input) => {
    if (typeof input !== "object" || input === null || Array.isArray(input))
      throw new HttpError(400, "the body must be an order object")
    if (typeof input.customerId !== "string") throw new HttpError(400, "customerId is required")
    findOr404(customers, input.customerId, "customer")
    if (!Array.isArray(input.items) || input.items.length === 0)
      throw new HttpError(400, "items must list at least one product")
    const lines = input.items.map((line, i) => {
      if (typeof line?.productId !== "string") throw new HttpError(400, `items[${i}].productId is required`)
      if (!Number.isInteger(line.quantity) || line.quantity < 1)
        throw new HttpError(400, `items[${i}].quantity must be a whole number of at least 1`)
      const product = findOr404(products, line.productId, "product")
      if (product.stock < line.quantity) throw new HttpError(409, `only ${product.stock} of ${product.name} in stock`)
      return { productId: product.id, quantity: line.quantity, unitPriceCents: product.priceCents }
    })
    for (const line of lines) findOr404(products, line.productId, "product").stock -= line.quantity
    const order = {
      id: `ord_${String(nextOrder++).padStart(4, "0")}`,
      customerId: input.customerId,
      status: "pending",
      items: lines,
      totalCents: lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0),
      createdAt: new Date().toISOString(),
    }
    orders.push(order)
    for (const send of subscribers) send(order)
    return order
  }

  const route = async (request, response, url) => {
    const params = url.searchParams
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent)
    const method = request.method
    const allow = (...methods) => {
      if (!methods.includes(method)) throw new HttpError(405, `${method} is not allowed on ${url.pathname}`)
    }
    if (url.pathname === "/openapi.yaml") {
      allow("GET")
      response.writeHead(200, { "content-type": "application/yaml" })
      return response.end(readFileSync(documentPath))
    }
    if (parts[0] === "products" && parts.length === 1) {
      allow("GET")
      const q = params.get("q") ?? ""
      const category = params.get("category")
      if (category !== null && !categories.includes(category))
        throw new HttpError(400, `category must be one of ${categories.join(", ")}`)
      const maxPrice = integerParam(params, "maxPriceCents", { min: 0, fallback: Infinity })
      const limit = integerParam(params, "limit", { min: 1, max: 50, fallback: 20 })
      const offset = integerParam(params, "offset", { min: 0, fallback: 0 })
      const found = products.filter(
        (p) =>
          (!category || p.category === category) &&
          p.priceCents <= maxPrice &&
          matchesWords([p.name, p.description, ...p.tags].join(" "), q),
      )
      return json(response, 200, page(found, offset, limit))
    }
    if (parts[0] === "products" && parts.length === 2) {
      allow("GET")
      return json(response, 200, findOr404(products, parts[1], "product"))
    }
    if (parts[0] === "products" && parts.length === 3 && parts[2] === "image") {
      allow("GET")
      findOr404(products, parts[1], "product")
      response.writeHead(200, { "content-type": "image/png", "content-length": pixel.length })
      return response.end(pixel)
    }
    if (parts[0] === "customers" && parts.length === 1) {
      allow("GET")
      const q = (params.get("q") ?? "").toLowerCase()
      const limit = integerParam(params, "limit", { min: 1, max: 50, fallback: 20 })
      const offset = integerParam(params, "offset", { min: 0, fallback: 0 })
      const found = customers
        .filter((c) => !q || c.name.toLowerCase().includes(q) || c.city.toLowerCase().includes(q))
        .sort((a, b) => a.name.localeCompare(b.name))
      return json(response, 200, page(found, offset, limit))
    }
    if (parts[0] === "customers" && parts.length === 2) {
      allow("GET")
      return json(response, 200, findOr404(customers, parts[1], "customer"))
    }
    if (parts[0] === "orders" && parts.length === 1 && method === "POST") {
      if (request.headers.authorization !== `Bearer ${token}`)
        throw new HttpError(401, "placing an order needs the staff token (Authorization: Bearer …)")
      return json(response, 201, placeOrder(await readJson(request)))
    }
    if (parts[0] === "orders" && parts.length === 1) {
      allow("GET", "POST")
      const wanted = params.get("status")?.split(",").filter(Boolean) ?? []
      for (const status of wanted)
        if (!statuses.includes(status))
          throw new HttpError(400, `status "${status}" is not one of ${statuses.join(", ")}`)
      const customerId = params.get("customerId")
      const limit = integerParam(params, "limit", { min: 1, max: 50, fallback: 20 })
      const offset = params.get("cursor") ? decodeCursor(params.get("cursor")) : 0
      const found = orders
        .filter(
          (o) => (wanted.length === 0 || wanted.includes(o.status)) && (!customerId || o.customerId === customerId),
        )
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
      const items = found.slice(offset, offset + limit)
      return json(response, 200, {
        items,
        nextCursor: offset + limit < found.length ? encodeCursor(offset + limit) : null,
      })
    }
    if (parts[0] === "orders" && parts.length === 2) {
      allow("GET")
      return json(response, 200, findOr404(orders, parts[1], "order"))
    }
    if (url.pathname === "/events") {
      allow("GET")
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
      response.write(": connected\n\n")
      const send = (order) => response.write(`event: order\ndata: ${JSON.stringify(order)}\n\n`)
      subscribers.add(send)
      request.on("close", () => subscribers.delete(send))
      return
    }
    throw new HttpError(404, `no route for ${method} ${url.pathname}`)
  }

  return (request, response) => {
    const url = new URL(request.url ?? "/", "http://store.invalid")
    route(request, response, url).catch((error) => {
      if (response.headersSent) return response.destroy()
      const status = error instanceof HttpError ? error.status : 500
      json(response, status, { error: error instanceof HttpError ? error.message : "internal error" })
    })
  }
}

const json = (response, status, value) => {
  const text = JSON.stringify(value)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

/** Start the store on 127.0.0.1 (`port` 0 picks a free port). Resolves with its URL and a `close` function. */
export const startStore = ({ port = 0, token }) =>
  new Promise((resolve, reject) => {
    const sockets = new Set()
    const server = createServer(createStore({ token }))
    server.on("connection", (socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
    })
    server.on("error", reject)
    server.listen(port, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}`
      resolve({
        url,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          }),
      })
    })
  })

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const token = process.env.STORE_TOKEN || "demo-staff-token"
  const port = Number(process.env.PORT || 4010)
  startStore({ port, token }).then(
    ({ url }) => {
      console.log(`demo store listening on ${url} (document: ${url}/openapi.yaml)`)
      console.log(
        `placing orders needs: Authorization: Bearer <STORE_TOKEN>${process.env.STORE_TOKEN ? "" : ` (default "${token}")`}`,
      )
    },
    (error) => {
      console.error(`cannot start the demo store: ${error.message}`)
      process.exit(1)
    },
  )
}
