// Benchmarks of opencode-drive on its built dist (run `npx tsup` first):
//   - time from OpenCodeDriver.use to a ready prompt (the primary TUI accepts input), and from submit to the
//     queued answer on screen, against the real OpenCode;
//   - with tools: ["shell"], the time from submit to the intercepted call reaching `take` (before @opencode-ai/plugin
//     was provided locally, OpenCode installed it from the registry first: 11-35 s);
//   - fake-LLM streaming throughput in chunks per second, read by a plain SSE client, next to a baseline server
//     that writes the same pre-encoded events with no Effect runtime behind it.
// Usage: node bench/run.mjs [--runs N]   (default 3 OpenCode runs)
import * as Http from "node:http"
import { Effect } from "effect"
import { FakeLlm, Llm, OpenCodeDriver } from "../dist/index.js"

const runsFlag = process.argv.indexOf("--runs")
const runs = runsFlag === -1 ? 3 : Number(process.argv[runsFlag + 1])

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`

/** Read an SSE response body, counting `data:` events until [DONE]; returns the count. */
const readSse = async (url, init) => {
  const response = await fetch(url, init)
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  let events = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    let at
    while ((at = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, at)
      buffer = buffer.slice(at + 2)
      if (block.startsWith("data: ")) events++
    }
  }
  return events
}

const requestBody = JSON.stringify({ model: "simulated", stream: true, messages: [{ role: "user", content: "bench" }] })

/** Chunks per second the fake LLM streams for one response of `chunks` one-character text chunks. */
const fakeLlmThroughput = (chunks) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const llm = yield* FakeLlm.make
        yield* llm.control.queue(Llm.text("x".repeat(chunks), { chunkSize: 1 }))
        const started = performance.now()
        const events = yield* Effect.promise(() =>
          readSse(`${llm.baseUrl}/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${llm.apiKey}` },
            body: requestBody,
          }),
        )
        const elapsed = performance.now() - started
        yield* llm.settle(5_000)
        return { events, perSecond: (chunks / elapsed) * 1000 }
      }),
    ),
  )

/** The same events from a bare Node server writing pre-encoded chunks as fast as the socket takes them. */
const baselineThroughput = async (chunks) => {
  const event = `data: ${JSON.stringify({ id: "b", object: "chat.completion.chunk", created: 1, model: "simulated", choices: [{ index: 0, delta: { content: "x" }, finish_reason: null }] })}\n\n`
  const server = Http.createServer((req, res) => {
    req.resume()
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" })
      for (let i = 0; i < chunks; i++) {
        if (!res.write(event)) await new Promise((resolve) => res.once("drain", resolve))
      }
      res.end("data: [DONE]\n\n")
    })
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const started = performance.now()
  const events = await readSse(`http://127.0.0.1:${server.address().port}/`, { method: "POST", body: requestBody })
  const elapsed = performance.now() - started
  server.close()
  return { events, perSecond: (chunks / elapsed) * 1000 }
}

/** One OpenCode run: ms from use() to a ready prompt, and from submit to the answer on screen. */
const openCodeRun = () => {
  const started = performance.now()
  return Effect.runPromise(
    OpenCodeDriver.use(({ ui, llm }) =>
      Effect.gen(function* () {
        const ready = performance.now() - started
        yield* llm.queue(Llm.text("Benchmark answer."))
        const submitted = performance.now()
        yield* ui.submit("Benchmark prompt")
        yield* ui.waitFor("Benchmark answer.", { timeout: 180_000, interval: 20 })
        return { ready, answer: performance.now() - submitted }
      }),
    ),
  )
}

/** One run with an intercepted shell call: ms from submit until `take` returns the invocation. */
const toolRun = () =>
  Effect.runPromise(
    OpenCodeDriver.use({ tools: ["shell"] }, ({ ui, llm, tools }) =>
      Effect.gen(function* () {
        const shells = yield* tools.control("shell")
        yield* llm.queue(
          Llm.toolCall({ index: 0, id: "call_bench", name: "shell", input: { command: "ls" } }),
          Llm.finish("tool-calls"),
        )
        yield* llm.queue(Llm.text("Listed."))
        const submitted = performance.now()
        yield* ui.submit("List the files")
        const call = yield* shells.take("call_bench")
        const took = performance.now() - submitted
        yield* call.succeed({ output: "README.md\n", exit: 0 })
        yield* ui.waitFor("Listed.", { timeout: 180_000, interval: 20 })
        return took
      }),
    ),
  )

const chunks = 20_000
console.log(`fake-LLM streaming, ${chunks} one-character chunks (3 rounds, best):`)
const drive = []
const baseline = []
for (let round = 0; round < 3; round++) {
  drive.push(await fakeLlmThroughput(chunks))
  baseline.push(await baselineThroughput(chunks))
}
for (const sample of [...drive, ...baseline]) {
  if (sample.events < chunks) throw new Error(`expected at least ${chunks} events, read ${sample.events}`)
}
const best = (samples) => Math.max(...samples.map((s) => s.perSecond))
console.log(`  opencode-drive fake LLM : ${Math.round(best(drive)).toLocaleString("en")} chunks/s`)
console.log(`  bare Node SSE baseline  : ${Math.round(best(baseline)).toLocaleString("en")} chunks/s`)
console.log(`  ratio                   : ${(best(drive) / best(baseline)).toFixed(2)}`)

console.log(`\nreal OpenCode, ${runs} run(s):`)
const samples = []
for (let i = 0; i < runs; i++) {
  const sample = await openCodeRun()
  samples.push(sample)
  console.log(
    `  run ${i + 1}: use → ready prompt ${fmt(sample.ready)}, submit → answer on screen ${fmt(sample.answer)}`,
  )
}
console.log(
  `  median: use → ready prompt ${fmt(median(samples.map((s) => s.ready)))}, submit → answer ${fmt(median(samples.map((s) => s.answer)))}`,
)

console.log(`\nreal OpenCode with tools: ["shell"], ${runs} run(s):`)
const takes = []
for (let i = 0; i < runs; i++) {
  takes.push(await toolRun())
  console.log(`  run ${i + 1}: submit → take ${fmt(takes.at(-1))}`)
}
console.log(`  median: submit → take ${fmt(median(takes))}`)
