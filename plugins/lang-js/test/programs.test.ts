/**
 * Realistic programs of the kind models write for CodeMode, run by the interpreter and by Node.
 */
import { describe, it } from "vitest"
import { sameAsNode, sameAsNodeAsync } from "./node.js"

const programs: string[] = [
  `const orders = [{ id: 'a', total: 30, status: 'open', items: [{ sku: 'x', qty: 2 }] }, { id: 'b', total: 12.5, status: 'done', items: [] }, { id: 'c', total: 99, status: 'open', items: [{ sku: 'y', qty: 1 }, { sku: 'x', qty: 5 }] }]
   const open = orders.filter((o) => o.status === 'open')
   const bySku = {}
   for (const o of open) for (const { sku, qty } of o.items) bySku[sku] = (bySku[sku] ?? 0) + qty
   return { count: open.length, revenue: open.reduce((s, o) => s + o.total, 0).toFixed(2), bySku, top: Object.entries(bySku).sort((a, b) => b[1] - a[1])[0][0] }`,
  `const text = 'The quick brown fox jumps over the lazy dog. The dog sleeps.'
   const freq = text.toLowerCase().match(/[a-z]+/g).reduce((m, w) => m.set(w, (m.get(w) || 0) + 1), new Map())
   return [...freq].filter(([, n]) => n > 1).map(([w, n]) => \`\${w}:\${n}\`).sort()`,
  `const rows = [['name', 'age'], ['ann', '31'], ['bob', '27']]
   const [header, ...data] = rows
   const records = data.map((r) => Object.fromEntries(header.map((h, i) => [h, isNaN(r[i]) ? r[i] : Number(r[i])])))
   return { records, oldest: records.reduce((a, b) => (a.age > b.age ? a : b)).name, csv: records.map((r) => Object.values(r).join(',')).join('\\n') }`,
  `function paginate(items, size) { const pages = []; for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size)); return pages }
   const pages = paginate(Array.from({ length: 23 }, (_, i) => i + 1), 5)
   return { pages: pages.length, last: pages.at(-1), sums: pages.map((p) => p.reduce((a, b) => a + b, 0)) }`,
  `const events = [{ at: '2024-03-01T10:00:00Z', kind: 'login' }, { at: '2024-03-01T12:30:00Z', kind: 'logout' }, { at: '2024-03-02T09:15:00Z', kind: 'login' }]
   const byDay = {}
   for (const e of events) { const day = e.at.slice(0, 10); (byDay[day] ||= []).push(e.kind) }
   const span = (new Date(events.at(-1).at) - new Date(events[0].at)) / 36e5
   return { byDay, span, weekday: new Date(events[0].at).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }) }`,
  `class Inventory { #items = new Map(); add(name, n = 1) { this.#items.set(name, (this.#items.get(name) ?? 0) + n); return this } remove(name, n = 1) { const left = (this.#items.get(name) ?? 0) - n; if (left < 0) throw new RangeError(\`not enough \${name}\`); left ? this.#items.set(name, left) : this.#items.delete(name); return this } get report() { return [...this.#items].map(([k, v]) => \`\${k}=\${v}\`).join(', ') } }
   const inv = new Inventory().add('apple', 3).add('pear').remove('apple', 2)
   let error; try { inv.remove('kiwi') } catch (e) { error = e.message }
   return { report: inv.report, error }`,
  `const deepMerge = (a, b) => { const out = { ...a }; for (const [k, v] of Object.entries(b)) out[k] = v && typeof v === 'object' && !Array.isArray(v) ? deepMerge(a[k] ?? {}, v) : v; return out }
   return deepMerge({ a: 1, b: { c: 2, d: [1] } }, { b: { e: 3, d: [2] }, f: null })`,
  `const tree = { name: 'root', children: [{ name: 'a', children: [{ name: 'a1', children: [] }] }, { name: 'b', children: [] }] }
   function* walk(node, depth = 0) { yield [node.name, depth]; for (const c of node.children) yield* walk(c, depth + 1) }
   const flat = [...walk(tree)].map(([n, d]) => '  '.repeat(d) + n)
   const count = (n) => 1 + n.children.reduce((s, c) => s + count(c), 0)
   return { flat, count: count(tree) }`,
  `const sleepless = async (x) => x * 2
   const results = await Promise.allSettled([1, 2, 3].map(async (x) => { if (x === 2) throw new Error('two'); return sleepless(x) }))
   return results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason.message))`,
  `const url = new URL('https://api.example.com/v1/search?q=hello+world&page=2')
   url.searchParams.set('page', String(Number(url.searchParams.get('page')) + 1))
   url.searchParams.append('tag', 'a b')
   return { host: url.host, path: url.pathname.split('/').filter(Boolean), q: url.searchParams.get('q'), next: url.toString() }`,
  `const data = { users: [{ id: 1, name: 'Ann', roles: ['admin'] }, { id: 2, name: 'Bob', roles: [] }] }
   const json = JSON.stringify(data, null, 2)
   const parsed = JSON.parse(json, (k, v) => (k === 'roles' ? v.length : v))
   return { lines: json.split('\\n').length, parsed, admins: data.users.filter((u) => u.roles.includes('admin')).map((u) => u.name) }`,
  `const memo = new Map(); const ways = (n) => { if (n <= 1) return 1; if (memo.has(n)) return memo.get(n); const r = ways(n - 1) + ways(n - 2); memo.set(n, r); return r }
   const primes = []; for (let n = 2; primes.length < 15; n++) if (primes.every((p) => n % p)) primes.push(n)
   return { ways: ways(50), primes, gcd: ((a, b) => { while (b) [a, b] = [b, a % b]; return a })(1071, 462) }`,
  `const words = ['banana', 'Apple', 'cherry', 'apple', 'Banana']
   const unique = [...new Set(words.map((w) => w.toLowerCase()))].sort((a, b) => a.localeCompare(b))
   const grouped = words.reduce((acc, w) => { const k = w[0].toUpperCase(); acc[k] = [...(acc[k] ?? []), w]; return acc }, {})
   return { unique, grouped, longest: words.reduce((a, b) => (b.length > a.length ? b : a)), title: unique.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ') }`,
  `const matrix = [[1, 2, 3], [4, 5, 6]]
   const transpose = (m) => m[0].map((_, i) => m.map((r) => r[i]))
   const sum = matrix.flat().reduce((a, b) => a + b)
   return { t: transpose(matrix), sum, diag: matrix.map((r, i) => r[i]), avg: Math.round((sum / matrix.flat().length) * 100) / 100 }`,
  `const fmt = (n) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
   const pct = (a, b) => \`\${((a / b) * 100).toFixed(1)}%\`
   return [fmt(1234567.891), fmt(0.5), pct(1, 3), (1e21).toLocaleString('en-US'), String(0.1 + 0.2), (255).toString(16).padStart(4, '0')]`,
]

describe("realistic programs agree with Node", () => {
  it.each(programs)("%s", async (program) => {
    if (program.includes("await")) await sameAsNodeAsync(program)
    else sameAsNode(program)
  })
})
