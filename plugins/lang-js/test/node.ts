/**
 * Reference results from Node itself: the same source run by the host engine, so tests check the interpreter
 * against real JavaScript semantics instead of hand-written expectations.
 */
import { expect } from "vitest"
import { evaluate, runJs } from "./harness.js"

process.env.TZ = "UTC"

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...a: unknown[]) => Promise<unknown>

/** The value of a function body run by Node, as data (what the interpreter's result would be). */
export const nodeValue = (body: string): unknown => {
  const v = new Function(`"use strict";\n${body}`)()
  return v === undefined ? null : JSON.parse(JSON.stringify(v))
}

/**
 * The interpreter returns what Node returns for the same function body, and so does its second run, from the
 * compiled form the worker kept (see `programCache.ts`).
 */
export const sameAsNode = (body: string): void => {
  const expected = nodeValue(body)
  expect(evaluate(body)).toEqual(expected)
  expect(evaluate(body)).toEqual(expected)
}

/** Like `sameAsNode` for bodies that use `await` (Node runs them as an async function). */
export const sameAsNodeAsync = async (body: string): Promise<void> => {
  const v = await new AsyncFunction(`"use strict";\n${body}`)()
  const expected = v === undefined ? null : JSON.parse(JSON.stringify(v))
  expect(evaluate(body)).toEqual(expected)
  expect(evaluate(body)).toEqual(expected)
}

/** The lines Node's console.log prints for an async function body (values formatted with JSON). */
export const nodeLogs = async (body: string): Promise<string[]> => {
  const lines: string[] = []
  const log = (...args: unknown[]) =>
    lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "))
  await new AsyncFunction("console", `"use strict";\n${body}`)({ log })
  await new Promise((r) => setTimeout(r, 10))
  return lines
}

/** The interpreter logs the same lines (in the same order) as Node for an async body using `console.log` of strings. */
export const sameLogsAsNode = async (body: string): Promise<void> => {
  const ours = runJs(body)
  if (!ours.outcome.ok) throw new Error(`${ours.outcome.error.kind}: ${ours.outcome.error.message}`)
  expect(ours.logs).toEqual(await nodeLogs(body))
}
