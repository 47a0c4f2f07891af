// Tool-adapters benchmark: the control channel's round trip of one intercepted call over loopback HTTP (POST
// /invoke, take by call ID, succeed, read the NDJSON result line), as p50/p99 over many sequential calls, and the
// throughput of batches of parallel calls. Runs on the built package (`npx tsup` first).
import { make, Protocol } from "@codemode/tool-adapters"
import { Effect, Exit, Scope } from "effect"

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
const us = (ms) => `${(ms * 1000).toFixed(0)} µs`

const scope = Effect.runSync(Scope.make())
const adapters = await Effect.runPromise(Scope.provide(make({ declared: ["shell"] }), scope))
const shells = await Effect.runPromise(adapters.tools.control("shell"))
const url = adapters.env[Protocol.urlVariable]
const token = adapters.env[Protocol.tokenVariable]

let next = 0
/** One intercepted call: the adapter side posts, the script side takes and succeeds. */
const roundTrip = async () => {
  const callID = `call_${next++}`
  const response = fetch(`${url}/invoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ id: `id_${callID}`, tool: "shell", callID, input: { command: "true" } }),
  })
  const invocation = await Effect.runPromise(shells.take(callID))
  await Effect.runPromise(invocation.succeed({ output: "ok\n", exit: 0 }))
  const text = await (await response).text()
  if (!text.includes('"type":"result"')) throw new Error(`unexpected answer: ${text}`)
}

for (let i = 0; i < 300; i++) await roundTrip()

const sequential = []
for (let i = 0; i < 2000; i++) {
  const t0 = performance.now()
  await roundTrip()
  sequential.push(performance.now() - t0)
}
sequential.sort((a, b) => a - b)

const batch = 50
const batches = 20
const t0 = performance.now()
for (let i = 0; i < batches; i++) await Promise.all(Array.from({ length: batch }, roundTrip))
const parallelMs = performance.now() - t0

await Effect.runPromise(adapters.settle)
await Effect.runPromise(Scope.close(scope, Exit.void))

console.log("| measurement | value |")
console.log("|---|---|")
console.log(`| sequential round trip p50 (2000 calls) | ${us(percentile(sequential, 50))} |`)
console.log(`| sequential round trip p99 | ${us(percentile(sequential, 99))} |`)
console.log(
  `| parallel throughput (${batches} batches of ${batch}) | ${Math.round((batch * batches) / (parallelMs / 1000))} calls/s |`,
)
