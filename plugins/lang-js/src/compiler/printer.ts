/**
 * How error messages name an expression: the way V8 prints a callee or an iterated value (`o.a.b is not a
 * function`, `f(...) is not a function`, `{(intermediate value)} is not iterable`), so a model reading the message
 * sees what it would see from Node. Anything V8 would not spell out is `(intermediate value)`.
 */
import type { Node } from "../parse.js"

const INTERMEDIATE = "(intermediate value)"

/** Names that V8 prints after a dot for a computed string key (`o["x"]` prints as `o.x`). */
const printedKey = (key: Node): string | undefined => {
  if (key.type === "Literal" && typeof key.value === "string") return key.value
  return undefined
}

/** The text V8 uses for `n` in a message. */
export const printExpression = (n: Node): string => {
  switch (n.type) {
    case "Identifier":
      return n.name
    case "ThisExpression":
      return "this"
    case "Literal":
      if (n.regex) return `/${n.regex.pattern}/${n.regex.flags}`
      if (typeof n.value === "string") return JSON.stringify(n.value)
      if (n.bigint !== undefined) return `${n.bigint}n`
      return String(n.value)
    case "TemplateLiteral":
      return n.expressions.length === 0 ? JSON.stringify(n.quasis[0].value.cooked ?? "") : INTERMEDIATE
    case "MemberExpression": {
      const object = n.object.type === "Super" ? INTERMEDIATE : printExpression(n.object)
      const dot = n.optional ? "?." : "."
      if (n.property.type === "PrivateIdentifier") return `${object}${dot}#${n.property.name}`
      if (!n.computed) return `${object}${dot}${n.property.name}`
      const key = printedKey(n.property)
      if (key !== undefined) return `${object}${dot}${key}`
      return `${object}${n.optional ? "?." : ""}[${printExpression(n.property)}]`
    }
    case "ChainExpression":
    case "ParenthesizedExpression":
      return printExpression(n.expression)
    case "CallExpression":
      return `${n.callee.type === "Super" ? "super" : printExpression(n.callee)}(...)`
    case "NewExpression":
      return printExpression(n.callee)
    case "ObjectExpression":
      return `{${n.properties.map(() => INTERMEDIATE).join("")}}`
    case "ArrayExpression":
      return `[${n.elements.map((e: Node | null) => (e === null ? "" : e.type === "SpreadElement" ? `...${printExpression(e.argument)}` : printExpression(e))).join(",")}]`
    case "UnaryExpression":
      return `(${n.operator}${/^[a-z]/.test(n.operator) ? " " : ""}${printExpression(n.argument)})`
    case "UpdateExpression":
      return n.prefix
        ? `(${n.operator}${printExpression(n.argument)})`
        : `(${printExpression(n.argument)}${n.operator})`
    case "BinaryExpression":
    case "LogicalExpression":
      return `(${printExpression(n.left)} ${n.operator} ${printExpression(n.right)})`
    case "SequenceExpression":
      return `(${n.expressions.map(printExpression).join(" , ")})`
    case "AssignmentExpression":
      return printExpression(n.left)
    case "AwaitExpression":
      return printExpression(n.argument)
    default:
      return INTERMEDIATE
  }
}

/** The message for a value of `n` that is not iterable (`f(...)`: the callee may not be a function either). */
export const notIterableText = (n: Node): string => {
  if (n.type === "CallExpression" || n.type === "NewExpression")
    return `${printExpression(n.callee)} is not a function or its return value is not iterable`
  return `${printExpression(n)} is not iterable`
}

/** How V8 shows a property key it did not convert (`#<Object>` for an object). */
export const unconvertedKeyText = (key: unknown): string =>
  typeof key === "object" && key !== null ? "#<Object>" : typeof key === "symbol" ? key.toString() : String(key)
