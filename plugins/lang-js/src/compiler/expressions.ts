/**
 * The expression dispatcher: each expression node becomes a closure `(env) => value`, compiled by the module of its
 * kind. An optional chain's links compile through `chain`, which lets a short-circuit (`SHORT`) travel to the
 * chain's end.
 */
import type { Node } from "../parse.js"
import { assignment, update } from "./assignments.js"
import { readResolved, identifier } from "./bindings.js"
import { callExpression, newExpression, taggedTemplate } from "./calls.js"
import { classExpression } from "./classes.js"
import type { CompileContext, Expr } from "./context.js"
import { functionExpression } from "./functions.js"
import { arrayLiteral, literal, objectLiteral, template } from "./literals.js"
import { chainExpression, member } from "./members.js"
import { dynamicImport } from "./modules.js"
import { binary, conditional, logical, sequence, unaryExpression } from "./operators.js"
import { unsupported } from "./shared.js"

/** Compile an expression. `name` names anonymous functions and classes (`const f = () => {}`). */
export const expression = (ctx: CompileContext, n: Node, name?: string): Expr => {
  switch (n.type) {
    case "Literal":
      return literal(ctx, n)
    case "Identifier":
      return identifier(ctx, n)
    case "ThisExpression":
      return readResolved(ctx, n)
    case "TemplateLiteral":
      return template(ctx, n)
    case "TaggedTemplateExpression":
      return taggedTemplate(ctx, n)
    case "ArrayExpression":
      return arrayLiteral(ctx, n)
    case "ObjectExpression":
      return objectLiteral(ctx, n)
    case "FunctionExpression":
    case "ArrowFunctionExpression":
      return functionExpression(ctx, n, n.id?.name ?? name ?? "")
    case "ClassExpression":
      return classExpression(ctx, n, n.id?.name ?? name ?? "")
    case "UnaryExpression":
      return unaryExpression(ctx, n)
    case "UpdateExpression":
      return update(ctx, n)
    case "BinaryExpression":
      return binary(ctx, n)
    case "LogicalExpression":
      return logical(ctx, n)
    case "AssignmentExpression":
      return assignment(ctx, n)
    case "ConditionalExpression":
      return conditional(ctx, n)
    case "SequenceExpression":
      return sequence(ctx, n)
    case "MemberExpression":
      return member(ctx, n, false)
    case "ChainExpression":
      return chainExpression(ctx, n)
    case "CallExpression":
      return callExpression(ctx, n, false)
    case "NewExpression":
      return newExpression(ctx, n)
    case "MetaProperty":
      if (n.meta.name === "new") return readResolved(ctx, n)
      return unsupported(
        n,
        "`import.meta` is not supported",
        "Programs are not loaded from files; there is no module metadata",
      )
    case "ImportExpression":
      return dynamicImport(ctx, n)
    case "AwaitExpression":
    case "YieldExpression":
      // Resumable code handles these; reaching here means a position the resumable form does not cover.
      return unsupported(
        n,
        `\`${n.type === "AwaitExpression" ? "await" : "yield"}\` is not supported in this position`,
        "Await the value in a separate statement first",
      )
    case "ParenthesizedExpression":
      return ctx.expr(n.expression, name)
    default:
      return unsupported(
        n,
        `${n.type} is not supported`,
        "Rewrite this expression with the supported subset (see SUPPORT.md)",
      )
  }
}

/** A link of an optional chain (may produce `SHORT`). */
export const chainLink = (ctx: CompileContext, n: Node): Expr => {
  if (n.type === "MemberExpression") return member(ctx, n, true)
  if (n.type === "CallExpression") return callExpression(ctx, n, true)
  return ctx.expr(n)
}
