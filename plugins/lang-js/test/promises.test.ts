/**
 * Promise and async ordering: every program logs the order in which its callbacks run, and the interpreter must log
 * exactly what Node logs. Host calls that finish in a controlled order come after.
 */
import { describe, expect, it } from "vitest"
import { runJs } from "./harness.js"
import { sameLogsAsNode } from "./node.js"

const programs: string[] = [
  "console.log('a'); Promise.resolve().then(() => console.log('b')); console.log('c')",
  "Promise.resolve().then(() => console.log(1)).then(() => console.log(2)); Promise.resolve().then(() => console.log(3)).then(() => console.log(4))",
  "async function f() { console.log('f1'); await null; console.log('f2') } f(); console.log('main')",
  "async function a() { console.log('a1'); await b(); console.log('a2') } async function b() { console.log('b1') } a(); Promise.resolve().then(() => console.log('p1')).then(() => console.log('p2')); console.log('sync')",
  "const p = new Promise((r) => r(Promise.resolve('x'))); p.then((v) => console.log('outer', v)); Promise.resolve().then(() => console.log('t1')).then(() => console.log('t2')).then(() => console.log('t3'))",
  "async function f() { return Promise.resolve('r') } f().then((v) => console.log(v)); Promise.resolve().then(() => console.log(1)).then(() => console.log(2)).then(() => console.log(3))",
  "async function f() { return 'plain' } f().then((v) => console.log(v)); Promise.resolve().then(() => console.log(1)).then(() => console.log(2))",
  "const thenable = { then(r) { console.log('then called'); r('t') } }; Promise.resolve(thenable).then((v) => console.log('got', v)); console.log('after')",
  "(async () => { const v = await { then(r) { r(5) } }; console.log('awaited', v) })(); Promise.resolve().then(() => console.log('m1')).then(() => console.log('m2'))",
  "Promise.all([1, Promise.resolve(2), new Promise((r) => r(3))]).then((v) => console.log('all', v.join())); Promise.resolve().then(() => console.log('x')).then(() => console.log('y')).then(() => console.log('z'))",
  "Promise.race([new Promise(() => {}), Promise.resolve('fast')]).then((v) => console.log('race', v)); Promise.resolve().then(() => console.log('q'))",
  "Promise.allSettled([Promise.reject(new Error('no')), 1]).then((r) => console.log(r.map((x) => x.status).join())); Promise.resolve().then(() => console.log('w'))",
  "Promise.any([Promise.reject(1), Promise.resolve(2)]).then((v) => console.log('any', v)); Promise.any([Promise.reject(1)]).catch((e) => console.log(e.constructor.name, e.errors.length))",
  "Promise.resolve(1).finally(() => console.log('finally')).then((v) => console.log('value', v)); Promise.resolve().then(() => console.log('a')).then(() => console.log('b')).then(() => console.log('c'))",
  "Promise.reject(new Error('e')).finally(() => console.log('fin')).catch((e) => console.log('caught', e.message))",
  "Promise.reject(1).catch((e) => { console.log('c', e); return 2 }).then((v) => console.log('t', v))",
  "new Promise((_, rej) => rej('r')).then(() => console.log('no'), (e) => console.log('onRejected', e))",
  "const p = Promise.resolve('shared'); p.then((v) => console.log(1, v)); p.then((v) => console.log(2, v)); p.then(() => { throw new Error('x') }).catch((e) => console.log(3, e.message))",
  "async function loop() { for (let i = 0; i < 3; i++) { await null; console.log('loop', i) } } loop(); loop()",
  "async function* gen() { yield 1; await null; yield 2 } (async () => { for await (const v of gen()) console.log('gen', v) })(); Promise.resolve().then(() => console.log('t1')).then(() => console.log('t2')).then(() => console.log('t3'))",
  "(async () => { for await (const v of [Promise.resolve('a'), 'b']) console.log(v) })(); console.log('first')",
  "(async () => { try { await Promise.reject(new Error('boom')) } catch (e) { console.log('caught', e.message) } finally { console.log('finally') } })()",
  "const order = []; const a = async () => { order.push('a1'); await 0; order.push('a2') }; const b = async () => { order.push('b1'); await 0; order.push('b2') }; Promise.all([a(), b()]).then(() => console.log(order.join()))",
  "new Promise((resolve) => { console.log('executor'); resolve(1); resolve(2); console.log('after resolve') }).then((v) => console.log('v', v))",
  "async function f() { await new Promise((r) => r()); console.log('f') } async function g() { await 0; console.log('g') } f(); g()",
  "Promise.resolve().then(() => { Promise.resolve().then(() => console.log('inner')); console.log('outer') }).then(() => console.log('next'))",
  "const p1 = Promise.reject(new Error('late')); setTimeoutLike(); function setTimeoutLike() { Promise.resolve().then(() => p1.catch((e) => console.log('handled', e.message))) }",
  "(async () => { const results = await Promise.all([1, 2, 3].map(async (x) => { await null; return x * 2 })); console.log(results.join()) })()",
  "async function f() { try { return await Promise.reject('r') } catch (e) { return 'recovered ' + e } } f().then(console.log)",
  "class Thenable { constructor(v) { this.v = v } then(res) { res(this.v * 2) } } (async () => console.log(await new Thenable(21)))()",
  "Promise.resolve().then(() => console.log('A')); (async () => { console.log('B'); await undefined; console.log('C'); await undefined; console.log('D') })(); Promise.resolve().then(() => console.log('E')).then(() => console.log('F'))",
]

const awaitPositions: string[] = [
  "const a = async (v) => v; const r = [await a(1), await a(2)]; console.log(JSON.stringify(r))",
  "const a = async (v) => v; const o = { x: await a(1), [await a('k')]: await a(2), ...(await a({ s: 3 })) }; console.log(JSON.stringify(o))",
  "const a = async (v) => v; console.log(`${await a('t')}-${await a(1)}`)",
  "const a = async (v) => v; const f = (x, y) => x + y; console.log(f(await a(1), await a(2)))",
  "const a = async (v) => v; console.log(await a(1) + await a(2), (await a({ p: 'prop' })).p)",
  "const a = async (v) => v; console.log(await a(true) ? await a('yes') : await a('no'), (await a(null)) ?? await a('dflt'), (await a(0)) || 'zero')",
  "const a = async (v) => v; let x = 1; x += await a(2); const o = { k: 0 }; o.k = await a(5); o['k'] += await a(1); console.log(x, o.k)",
  "const a = async (v) => v; let n = 0; for (let i = 0; i < 3; i++) n += await a(i); let w = 0; while (await a(w < 2)) w++; console.log(n, w)",
  "const a = async (v) => v; switch (await a(2)) { case await a(1): console.log('one'); break; case 2: console.log('two', await a('!')); }",
  "const a = async (v) => v; try { await Promise.reject(new Error('x')) } catch (e) { console.log('catch', await a(e.message)) } finally { console.log('finally', await a(1)) }",
  "const a = async (v) => v; const list = []; for (const x of await a([1, 2])) list.push(await a(x * 10)); console.log(list.join())",
  "const a = async (v) => v; const { p, q = 'q' } = await a({ p: 'p' }); console.log(p, q)",
  "const a = async (v) => v; const r = await a([3, 1, 2]).then((x) => x.sort()); console.log(r.join(), typeof (await a(() => 1)))",
  "async function* g() { yield 1; yield* [2, 3]; const x = yield 4; console.log('sent', x) } const it = g(); for (let i = 0; i < 5; i++) { const r = await it.next(i === 4 ? 'v' : undefined); console.log(JSON.stringify(r)) }",
  "async function* g() { try { yield 1; yield 2 } finally { console.log('cleanup') } } for await (const v of g()) { console.log(v); break }",
  "const a = async (v) => v; label: for (const x of [1, 2, 3]) { for (const y of [1, 2]) { if (await a(x === 2)) continue label; console.log(x, y) } }",
  "class K { async m() { return this.v } v = 7 } console.log(await new K().m())",
  "const a = async (v) => v; const f = async ({ x }, [y] = [2]) => x + (await a(y)); console.log(await f({ x: 1 }))",
]

describe("await in every position matches Node", () => {
  it.each(awaitPositions)("%s", async (program) => {
    await sameLogsAsNode(program)
  })
})

describe("call depth across suspensions", () => {
  it("catching errors after resuming does not leak call depth", () => {
    const r = runJs(
      "async function f() { let n = 0; for (let i = 0; i < 5000; i++) { try { if (i % 2) await null; throw new Error('x') } catch { n++ } } return n } await f()",
    )
    expect(r.value).toBe(5000)
  })
  it("deep synchronous work inside async functions still counts depth", () => {
    const r = runJs("async function f(n) { await null; return n === 0 ? 0 : 1 + (await f(n - 1)) } await f(300)")
    expect(r.value).toBe(300)
  })
})

describe("promise ordering matches Node", () => {
  it.each(programs)("%s", async (program) => {
    await sameLogsAsNode(program)
  })
})

describe("Promise.withResolvers (newer than the Node these tests run on)", () => {
  it("resolves through the returned function, after the synchronous code", () =>
    expect(
      runJs(
        "const { promise, resolve } = Promise.withResolvers(); promise.then((v) => console.log('resolved', v)); resolve('ok'); console.log('sync end')",
      ).logs,
    ).toEqual(["sync end", "resolved ok"]))
})

describe("host calls in flight", () => {
  const delayed = {
    tools: {
      "svc.slow": () => ({ value: "slow", delay: 30 }),
      "svc.fast": () => ({ value: "fast", delay: 5 }),
      "svc.fails": () => ({ fail: "nope", delay: 10 }),
    },
  }

  it("start when called and run concurrently; results arrive in completion order", () => {
    const r = runJs(
      "const a = tools.svc.slow({}).then((v) => console.log(v)); const b = tools.svc.fast({}).then((v) => console.log(v)); await Promise.all([a, b]); 'done'",
      delayed,
    )
    expect(r.logs).toEqual(["fast", "slow"])
    expect(r.calls.map((c) => (c.kind === "tool" ? c.path : c.kind))).toEqual(["svc.slow", "svc.fast"])
    expect(r.value).toBe("done")
  })

  it("Promise.all keeps argument order while completion order differs", () => {
    expect(runJs("await Promise.all([tools.svc.slow(), tools.svc.fast(), tools.svc.slow()])", delayed).value).toEqual([
      "slow",
      "fast",
      "slow",
    ])
  })

  it("Promise.race settles with the first to finish", () => {
    expect(runJs("await Promise.race([tools.svc.slow(), tools.svc.fast()])", delayed).value).toBe("fast")
  })

  it("a failed call rejects its promise with the host's message and kind", () => {
    const r = runJs(
      "try { await tools.svc.fails({}) } catch (e) { return [e.message, e.kind, e instanceof Error] }",
      delayed,
    )
    expect(r.value).toEqual(["nope", "ToolFailure", true])
  })

  it("awaiting in sequence runs calls one after the other", () => {
    const r = runJs(
      "const x = await tools.svc.slow(); console.log('between'); const y = await tools.svc.fast(); [x, y]",
      delayed,
    )
    expect(r.value).toEqual(["slow", "fast"])
    expect(r.logs).toEqual(["between"])
  })

  it("calls still running when the program ends are cancelled", () => {
    const r = runJs("tools.svc.slow(); tools.svc.slow(); await tools.svc.fast(); 'early'", delayed)
    expect(r.value).toBe("early")
    expect(r.cancelled).toHaveLength(2)
  })

  it("an un-awaited rejection becomes a warning, not a failure", () => {
    const r = runJs("tools.svc.fails(); await tools.svc.slow(); 'ok'", delayed)
    expect(r.value).toBe("ok")
    expect(r.warnings).toEqual([
      { kind: "ToolFailure", message: "Unhandled promise rejection: nope", location: { line: 1, column: 1 } },
    ])
  })

  it("an un-awaited rejection of a program error becomes an ExecutionFailure warning", () => {
    const r = runJs("Promise.reject(new RangeError('lost')); 1")
    expect(r.value).toBe(1)
    expect(r.warnings).toHaveLength(1)
    expect(r.warnings[0].kind).toBe("ExecutionFailure")
    expect(r.warnings[0].message).toBe("Unhandled promise rejection: RangeError: lost")
  })

  it("a rejection handled later in the program is not a warning", () => {
    const r = runJs("const p = tools.svc.fails(); await tools.svc.slow(); try { await p } catch { } 'ok'", delayed)
    expect(r.warnings).toEqual([])
  })

  it("async functions run concurrently with host calls", () => {
    const r = runJs(
      "async function job(name, call) { const v = await call(); console.log(name, v); return v } await Promise.all([job('A', tools.svc.slow), job('B', tools.svc.fast)])",
      delayed,
    )
    expect(r.logs).toEqual(["B fast", "A slow"])
  })

  it("a program waiting on a promise that can never settle fails clearly", () => {
    const r = runJs("await new Promise(() => {})")
    expect(r.outcome.ok).toBe(false)
    if (!r.outcome.ok) {
      expect(r.outcome.error.kind).toBe("ExecutionFailure")
      expect(r.outcome.error.message).toMatch(/never settle/)
    }
  })

  it("microtasks queued before the end still run", () => {
    expect(runJs("Promise.resolve().then(() => console.log('late')); 'value'").logs).toEqual(["late"])
  })
})
