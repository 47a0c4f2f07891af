/**
 * Scope analysis: resolves every variable reference to its binding before compilation, so compiled code reads
 * variables by (environment hops, slot) instead of by name.
 *
 * Bindings of blocks are flattened into their function's environment unless a closure captures them inside a loop
 * (then the block needs a fresh environment per iteration). A binding gets temporal-dead-zone checks only when some
 * reference could run before its declaration. The analysis also marks which nodes contain `await`/`yield`, so the
 * compiler can give only those the slower resumable form.
 */
import type { Node } from "../parse.js"

/** What declared a binding. */
export type BindingKind =
  | "var"
  | "let"
  | "const"
  | "class"
  | "classInner"
  | "function"
  | "fname"
  | "param"
  | "import"
  | "catch"
  | "this"
  | "arguments"
  | "newTarget"
  | "home"
  | "func"
  | "private"

/** A variable (or an implicit binding such as `this`) and where it lives at run time. */
export class Binding {
  /** Slot in its environment array (slot 0 links to the parent environment). */
  slot = -1
  /** Referenced from another function than the one that declares it. */
  captured = false
  /** Some reference may run before initialization: reads and writes must check. */
  tdz = false

  constructor(
    readonly name: string,
    readonly kind: BindingKind,
    readonly scope: Scope,
    /** Source offset after which straight-line code of the declaring function sees it initialized. */
    readonly initEnd: number,
  ) {}

  /** True when assigning to the binding is an error. */
  get immutable(): boolean {
    return this.kind === "const" || this.kind === "import" || this.kind === "classInner" || this.kind === "fname"
  }
}

/** The kinds of scopes. */
export type ScopeKind = "function" | "body" | "block" | "for" | "catch" | "switch" | "class"

/** A lexical scope. Scopes with `hasEnv` create an environment array at run time. */
export class Scope {
  readonly bindings = new Map<string, Binding>()
  /** Function declarations hoisted to the start of this scope. */
  readonly functionDeclarations: Node[] = []
  /** Creates its own environment at run time. */
  hasEnv = false
  /** Slots used, for scopes that create an environment. */
  size = 1

  constructor(
    readonly kind: ScopeKind,
    readonly parent: Scope | undefined,
    readonly fn: FunctionInfo,
    readonly node: Node,
    /** Re-entered while its function runs (inside a loop). */
    readonly inLoop: boolean,
  ) {}

  /** The nearest scope (this one or an ancestor) that creates an environment. */
  get env(): Scope | undefined {
    let s: Scope | undefined = this
    while (s !== undefined && !s.hasEnv) s = s.parent
    return s
  }
}

/** The kinds of function bodies. */
export type FunctionKind = "program" | "function" | "arrow" | "method" | "constructor" | "field" | "static"

/** Facts about one function (or the program, or a class field initializer treated as a method). */
export class FunctionInfo {
  scope!: Scope
  /**
   * The scope of the body's declarations when the parameters contain expressions (defaults, computed keys): a
   * closure in a default must not see the body's variables. Undefined otherwise (they share `scope`).
   */
  bodyScope: Scope | undefined
  /** Contains `await` or `yield` of its own (needs the resumable form). */
  suspends = false
  thisBinding: Binding | undefined
  argumentsBinding: Binding | undefined
  newTargetBinding: Binding | undefined
  homeBinding: Binding | undefined
  funcBinding: Binding | undefined
  fnameBinding: Binding | undefined
  /** Uses `super(...)` (derived constructors, or arrows inside them). */
  superCall = false

  constructor(
    readonly node: Node,
    readonly kind: FunctionKind,
    readonly parent: FunctionInfo | undefined,
    readonly isAsync: boolean,
    readonly isGenerator: boolean,
    /** A derived class constructor: `this` starts uninitialized. */
    readonly derived: boolean,
  ) {}

  /** Arrows take `this`, `arguments`, `super` and `new.target` from their enclosing function. */
  get isArrow(): boolean {
    return this.kind === "arrow"
  }
}

/** The implicit bindings a `super` expression needs. */
export interface SuperRefs {
  readonly home: Binding
  readonly this: Binding
  readonly func?: Binding
  readonly newTarget?: Binding
}

/** The result of analysing a program. */
export interface Analysis {
  readonly program: FunctionInfo
  /** Function facts by node (function nodes, `PropertyDefinition` and `StaticBlock` for class initializers). */
  readonly functions: Map<Node, FunctionInfo>
  /** Block-level scopes by the node that opens them. */
  readonly scopes: Map<Node, Scope>
  /** Resolved references: identifiers, `this`, `new.target`, private names. `null` means a global. */
  readonly refs: Map<Node, Binding | null>
  /** The scope each reference appears in (for counting environment hops). */
  readonly refScopes: Map<Node, Scope>
  /** Bindings of `super` expressions. */
  readonly supers: Map<Node, SuperRefs>
  /** Nodes that contain `await`/`yield` belonging to their own function. */
  readonly suspends: Set<Node>
}

/** True when a parameter contains an expression (a default value or a computed key). */
const hasExpression = (p: Node): boolean => {
  switch (p.type) {
    case "AssignmentPattern":
      return true
    case "ObjectPattern":
      return p.properties.some((prop: Node) =>
        prop.type === "RestElement" ? hasExpression(prop.argument) : prop.computed || hasExpression(prop.value),
      )
    case "ArrayPattern":
      return p.elements.some((e: Node | null) => e !== null && hasExpression(e))
    case "RestElement":
      return hasExpression(p.argument)
    default:
      return false
  }
}

const isFunctionNode = (n: Node): boolean =>
  n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression"

/** The names a binding pattern declares. */
export const boundNames = (pattern: Node, out: Node[] = []): Node[] => {
  switch (pattern.type) {
    case "Identifier":
      out.push(pattern)
      break
    case "ObjectPattern":
      for (const p of pattern.properties) boundNames(p.type === "RestElement" ? p.argument : p.value, out)
      break
    case "ArrayPattern":
      for (const e of pattern.elements) if (e) boundNames(e, out)
      break
    case "AssignmentPattern":
      boundNames(pattern.left, out)
      break
    case "RestElement":
      boundNames(pattern.argument, out)
      break
  }
  return out
}

class Analyzer {
  readonly functions = new Map<Node, FunctionInfo>()
  readonly scopes = new Map<Node, Scope>()
  readonly refs = new Map<Node, Binding | null>()
  readonly refScopes = new Map<Node, Scope>()
  readonly supers = new Map<Node, SuperRefs>()
  readonly suspends = new Set<Node>()
  readonly allScopes: Scope[] = []
  private scope!: Scope
  private fn!: FunctionInfo
  private loopDepth = 0
  /** Nodes from the current function's root to the node being visited. */
  private path: Node[] = []

  analyzeProgram(program: Node): FunctionInfo {
    const info = new FunctionInfo(program, "program", undefined, true, false, false)
    this.functions.set(program, info)
    const scope = this.newScope("function", undefined, info, program)
    info.scope = scope
    this.fn = info
    this.scope = scope
    for (const s of program.body) {
      if (s.type === "ImportDeclaration") {
        for (const spec of s.specifiers) {
          this.refs.set(spec.local, this.declare(spec.local.name, "import", scope, 0))
          this.refScopes.set(spec.local, scope)
        }
      }
    }
    this.hoistVars(program.body, scope)
    this.declareLexicals(program.body, scope)
    info.thisBinding = this.declare("%this", "this", scope, 0)
    for (const s of program.body) this.statement(s)
    return info
  }

  private newScope(kind: Scope["kind"], parent: Scope | undefined, fn: FunctionInfo, node: Node): Scope {
    const s = new Scope(kind, parent, fn, node, kind === "function" ? false : this.loopDepth > 0)
    this.allScopes.push(s)
    if (kind !== "function" && kind !== "body") this.scopes.set(node, s)
    return s
  }

  private declare(name: string, kind: Binding["kind"], scope: Scope, initEnd: number): Binding {
    const existing = scope.bindings.get(name)
    if (existing) return existing
    const b = new Binding(name, kind, scope, initEnd)
    scope.bindings.set(name, b)
    return b
  }

  /** Declare `var`s of a function body (not of nested functions) in the function scope. */
  private hoistVars(statements: Node[], scope: Scope): void {
    const visit = (s: Node | null): void => {
      if (!s) return
      switch (s.type) {
        case "VariableDeclaration":
          if (s.kind === "var")
            for (const d of s.declarations) for (const id of boundNames(d.id)) this.declare(id.name, "var", scope, 0)
          break
        case "IfStatement":
          visit(s.consequent)
          visit(s.alternate)
          break
        case "ForStatement":
          visit(s.init)
          visit(s.body)
          break
        case "ForInStatement":
        case "ForOfStatement":
          visit(s.left)
          visit(s.body)
          break
        case "WhileStatement":
        case "DoWhileStatement":
        case "LabeledStatement":
          visit(s.body)
          break
        case "BlockStatement":
          s.body.forEach(visit)
          break
        case "TryStatement":
          visit(s.block)
          if (s.handler) visit(s.handler.body)
          visit(s.finalizer)
          break
        case "SwitchStatement":
          for (const c of s.cases) c.consequent.forEach(visit)
          break
      }
    }
    statements.forEach(visit)
  }

  /** Declare the `let`/`const`/`class`/function declarations directly inside a statement list. */
  private declareLexicals(statements: Node[], scope: Scope): void {
    for (const s of statements) {
      if (s.type === "VariableDeclaration" && s.kind !== "var") {
        for (const d of s.declarations) {
          for (const id of boundNames(d.id)) this.declare(id.name, s.kind === "const" ? "const" : "let", scope, d.end)
        }
      } else if (s.type === "ClassDeclaration") {
        this.declare(s.id.name, "class", scope, s.end)
      } else if (s.type === "FunctionDeclaration") {
        const b = this.declare(s.id.name, "function", scope, 0)
        if (b.kind === "function" || b.kind === "param" || b.kind === "var") scope.functionDeclarations.push(s)
      }
    }
  }

  /** Resolve a name from the current scope: the binding, or null for a global. */
  private resolve(node: Node, name: string): Binding | null {
    let s: Scope | undefined = this.scope
    while (s !== undefined) {
      const b = s.bindings.get(name)
      if (b !== undefined) {
        this.use(b, node)
        return b
      }
      s = s.parent
    }
    return null
  }

  private use(b: Binding, node: Node): void {
    if (b.scope.fn !== this.fn) b.captured = true
    if (
      (b.kind === "let" || b.kind === "const" || b.kind === "class" || b.kind === "classInner") &&
      (b.scope.fn !== this.fn || node.start < b.initEnd || b.scope.kind === "switch")
    ) {
      b.tdz = true
    }
    // A parameter read by an expression of the parameter list before its own position (`(a = b, b) => ...`).
    if (b.kind === "param" && node.start < b.initEnd) b.tdz = true
  }

  private reference(node: Node): void {
    if (node.name === "arguments" && !this.thisFunction().isArrow && this.thisFunction().kind !== "program") {
      const f = this.thisFunction()
      let s: Scope | undefined = this.scope
      while (s !== undefined && s.fn !== f.parent && !s.bindings.has("arguments")) {
        if (s === f.scope) break
        s = s.parent
      }
      if (s === undefined || !s.bindings.has("arguments")) {
        this.refs.set(node, this.implicit(node, "argumentsBinding"))
        return
      }
    }
    this.refs.set(node, this.resolve(node, node.name))
    this.refScopes.set(node, this.scope)
  }

  /** The identifier that declares a binding: resolved like a reference, but it is not a use before initialization. */
  private declaration(node: Node): void {
    let s: Scope | undefined = this.scope
    let found: Binding | null = null
    while (s !== undefined && found === null) {
      found = s.bindings.get(node.name) ?? null
      s = s.parent
    }
    this.refs.set(node, found)
    this.refScopes.set(node, this.scope)
  }

  /** The function that provides `this`/`arguments`/`super` to the current code (skipping arrows). */
  private thisFunction(): FunctionInfo {
    let f = this.fn
    while (f.isArrow && f.parent) f = f.parent
    return f
  }

  private implicit(
    node: Node,
    which: "thisBinding" | "argumentsBinding" | "newTargetBinding" | "homeBinding" | "funcBinding",
  ): Binding {
    const f = this.thisFunction()
    let b = f[which]
    if (b === undefined) {
      const kind = (
        {
          thisBinding: "this",
          argumentsBinding: "arguments",
          newTargetBinding: "newTarget",
          homeBinding: "home",
          funcBinding: "func",
        } as const
      )[which]
      b = new Binding(`%${kind}`, kind, f.scope, 0)
      f.scope.bindings.set(b.name, b)
      f[which] = b
      if (kind === "this" && f.derived) b.tdz = true
    }
    if (b.scope.fn !== this.fn) b.captured = true
    this.refScopes.set(node, this.scope)
    return b
  }

  private markSuspend(): void {
    this.fn.suspends = true
    // Innermost first: once a node is marked, so are all its ancestors (linear over the whole analysis).
    for (let i = this.path.length - 1; i >= 0; i--) {
      const n = this.path[i]
      if (this.suspends.has(n)) break
      this.suspends.add(n)
    }
  }

  private withPath<T>(node: Node, visit: () => T): T {
    // A node visited twice in a row (a member target is a pattern, then an expression) is on the path once.
    if (this.path[this.path.length - 1] === node) return visit()
    this.path.push(node)
    try {
      return visit()
    } finally {
      this.path.pop()
    }
  }

  private inScope(scope: Scope, visit: () => void): void {
    const saved = this.scope
    this.scope = scope
    try {
      visit()
    } finally {
      this.scope = saved
    }
  }

  private inLoop(visit: () => void): void {
    this.loopDepth++
    try {
      visit()
    } finally {
      this.loopDepth--
    }
  }

  statement(s: Node): void {
    this.withPath(s, () => this.statementInner(s))
  }

  private statementInner(s: Node): void {
    switch (s.type) {
      case "ExpressionStatement":
        this.expression(s.expression)
        break
      case "VariableDeclaration":
        for (const d of s.declarations) {
          this.pattern(d.id, true)
          if (d.init) this.expression(d.init)
        }
        break
      case "FunctionDeclaration":
        this.declaration(s.id)
        this.func(s, "function")
        break
      case "ClassDeclaration":
        this.declaration(s.id)
        this.klass(s)
        break
      case "BlockStatement":
        this.block(s, s.body)
        break
      case "IfStatement":
        this.expression(s.test)
        this.statement(s.consequent)
        if (s.alternate) this.statement(s.alternate)
        break
      case "ReturnStatement":
      case "ThrowStatement":
        if (s.argument) this.expression(s.argument)
        break
      case "ForStatement": {
        const lexical = s.init && s.init.type === "VariableDeclaration" && s.init.kind !== "var"
        const run = () => {
          if (s.init) {
            if (s.init.type === "VariableDeclaration") this.statement(s.init)
            else this.expression(s.init)
          }
          this.inLoop(() => {
            if (s.test) this.expression(s.test)
            if (s.update) this.expression(s.update)
            this.statement(s.body)
          })
        }
        if (lexical) {
          let scope!: Scope
          this.inLoop(() => {
            scope = this.newScope("for", this.scope, this.fn, s)
          })
          this.declareLexicals([s.init], scope)
          this.inScope(scope, run)
        } else run()
        break
      }
      case "ForInStatement":
      case "ForOfStatement": {
        if (s.await) this.markSuspend()
        this.expression(s.right)
        const lexical = s.left.type === "VariableDeclaration" && s.left.kind !== "var"
        const body = () =>
          this.inLoop(() => {
            if (s.left.type === "VariableDeclaration") this.pattern(s.left.declarations[0].id, true)
            else this.pattern(s.left)
            this.statement(s.body)
          })
        if (lexical) {
          let scope!: Scope
          this.inLoop(() => {
            scope = this.newScope("for", this.scope, this.fn, s)
          })
          for (const id of boundNames(s.left.declarations[0].id)) {
            this.declare(id.name, s.left.kind === "const" ? "const" : "let", scope, 0)
          }
          this.inScope(scope, body)
        } else body()
        break
      }
      case "WhileStatement":
      case "DoWhileStatement":
        this.inLoop(() => {
          this.expression(s.test)
          this.statement(s.body)
        })
        break
      case "LabeledStatement":
        this.statement(s.body)
        break
      case "SwitchStatement": {
        this.expression(s.discriminant)
        const scope = this.newScope("switch", this.scope, this.fn, s)
        for (const c of s.cases) this.declareLexicals(c.consequent, scope)
        this.inScope(scope, () => {
          for (const c of s.cases) {
            this.withPath(c, () => {
              if (c.test) this.expression(c.test)
              for (const x of c.consequent) this.statement(x)
            })
          }
        })
        break
      }
      case "TryStatement":
        this.statement(s.block)
        if (s.handler) {
          const h = s.handler
          this.withPath(h, () => {
            const scope = this.newScope("catch", this.scope, this.fn, h)
            if (h.param) for (const id of boundNames(h.param)) this.declare(id.name, "catch", scope, 0)
            this.inScope(scope, () => {
              if (h.param) this.pattern(h.param, true)
              this.statement(h.body)
            })
          })
        }
        if (s.finalizer) this.statement(s.finalizer)
        break
      default:
        // Break, continue, empty, debugger, imports (declared up front) and unsupported statements (reported by
        // the compiler) have nothing to resolve.
        break
    }
  }

  private block(node: Node, statements: Node[]): void {
    const scope = this.newScope("block", this.scope, this.fn, node)
    this.declareLexicals(statements, scope)
    this.inScope(scope, () => {
      for (const s of statements) this.statement(s)
    })
  }

  /** A binding or assignment pattern: identifiers are references, defaults and computed keys are expressions. */
  pattern(p: Node, declaring = false): void {
    this.withPath(p, () => {
      switch (p.type) {
        case "Identifier":
          if (declaring) this.declaration(p)
          else this.reference(p)
          break
        case "ObjectPattern":
          for (const prop of p.properties) {
            if (prop.type === "RestElement") this.pattern(prop.argument, declaring)
            else {
              if (prop.computed) this.expression(prop.key)
              this.pattern(prop.value, declaring)
            }
          }
          break
        case "ArrayPattern":
          for (const e of p.elements) if (e) this.pattern(e, declaring)
          break
        case "AssignmentPattern":
          this.pattern(p.left, declaring)
          this.expression(p.right)
          break
        case "RestElement":
          this.pattern(p.argument, declaring)
          break
        default:
          this.expression(p)
      }
    })
  }

  expression(e: Node): void {
    this.withPath(e, () => this.expressionInner(e))
  }

  private expressionInner(e: Node): void {
    switch (e.type) {
      case "Identifier":
        this.reference(e)
        break
      case "ThisExpression":
        this.refs.set(e, this.implicit(e, "thisBinding"))
        break
      case "MetaProperty":
        if (e.meta.name === "new" && e.property.name === "target")
          this.refs.set(e, this.implicit(e, "newTargetBinding"))
        break
      case "Super":
        this.supers.set(e, { home: this.implicit(e, "homeBinding"), this: this.implicit(e, "thisBinding") })
        break
      case "Literal":
      case "PrivateIdentifier":
        break
      case "TemplateLiteral":
        e.expressions.forEach((x: Node) => this.expression(x))
        break
      case "TaggedTemplateExpression":
        this.expression(e.tag)
        this.expression(e.quasi)
        break
      case "ArrayExpression":
        for (const x of e.elements) if (x) this.expression(x)
        break
      case "ObjectExpression":
        for (const p of e.properties) {
          if (p.type === "SpreadElement") this.expression(p.argument)
          else {
            if (p.computed) this.expression(p.key)
            if (p.kind !== "init" || p.method) this.func(p.value, "method")
            else this.expression(p.value)
          }
        }
        break
      case "FunctionExpression":
        this.func(e, "function")
        break
      case "ArrowFunctionExpression":
        this.func(e, "arrow")
        break
      case "ClassExpression":
        this.klass(e)
        break
      case "UnaryExpression":
      case "UpdateExpression":
      case "SpreadElement":
        this.expression(e.argument)
        break
      case "AwaitExpression":
        this.markSuspend()
        this.expression(e.argument)
        break
      case "YieldExpression":
        this.markSuspend()
        if (e.argument) this.expression(e.argument)
        break
      case "BinaryExpression":
        if (e.left.type === "PrivateIdentifier") this.privateName(e.left)
        else this.expression(e.left)
        this.expression(e.right)
        break
      case "LogicalExpression":
        this.expression(e.left)
        this.expression(e.right)
        break
      case "AssignmentExpression":
        this.pattern(e.left)
        this.expression(e.right)
        break
      case "ConditionalExpression":
        this.expression(e.test)
        this.expression(e.consequent)
        this.expression(e.alternate)
        break
      case "MemberExpression":
        this.expression(e.object)
        if (e.property.type === "PrivateIdentifier") this.privateName(e.property)
        else if (e.computed) this.expression(e.property)
        break
      case "ChainExpression":
        this.expression(e.expression)
        break
      case "CallExpression":
        if (e.callee.type === "Super") {
          const f = this.thisFunction()
          f.superCall = true
          this.supers.set(e.callee, {
            home: this.implicit(e.callee, "homeBinding"),
            this: this.implicit(e.callee, "thisBinding"),
            func: this.implicit(e.callee, "funcBinding"),
            newTarget: this.implicit(e.callee, "newTargetBinding"),
          })
        } else this.expression(e.callee)
        e.arguments.forEach((x: Node) => this.expression(x))
        break
      case "NewExpression":
        this.expression(e.callee)
        e.arguments.forEach((x: Node) => this.expression(x))
        break
      case "SequenceExpression":
        e.expressions.forEach((x: Node) => this.expression(x))
        break
      case "ImportExpression":
        this.expression(e.source)
        break
      default:
        // Unsupported expressions are reported by the compiler.
        break
    }
  }

  private privateName(node: Node): void {
    this.refs.set(node, this.resolve(node, `#${node.name}`))
    this.refScopes.set(node, this.scope)
  }

  /** Visit a function (or a class initializer treated as one). */
  func(node: Node, kind: FunctionKind, derived = false): FunctionInfo {
    const info = new FunctionInfo(node, kind, this.fn, !!node.async, !!node.generator, derived)
    this.functions.set(node, info)
    const scope = this.newScope("function", this.scope, info, node)
    info.scope = scope
    const saved = { fn: this.fn, scope: this.scope, loopDepth: this.loopDepth, path: this.path }
    this.fn = info
    this.scope = scope
    this.loopDepth = 0
    this.path = []
    try {
      const params: Node[] = node.params ?? []
      const parameterExpressions = params.some(hasExpression)
      // With expressions in the list, a parameter is initialized in order: earlier ones cannot read it.
      for (const p of params)
        for (const id of boundNames(p)) this.declare(id.name, "param", scope, parameterExpressions ? p.end : 0)
      const body: Node = node.body
      const statements: Node[] | undefined =
        kind === "static" ? node.body : body && body.type === "BlockStatement" ? body.body : undefined
      let bodyScope = scope
      if (parameterExpressions && statements) {
        bodyScope = this.newScope("body", scope, info, body)
        info.bodyScope = bodyScope
      }
      if (statements) {
        this.hoistVars(statements, bodyScope)
        this.declareLexicals(statements, bodyScope)
      }
      if (node.type === "FunctionExpression" && node.id && !scope.bindings.has(node.id.name)) {
        info.fnameBinding = this.declare(node.id.name, "fname", scope, 0)
        info.funcBinding = info.fnameBinding
      }
      for (const p of params) this.pattern(p, true)
      if (kind === "field") {
        if (node.value) this.expression(node.value)
      } else if (statements) {
        this.inScope(bodyScope, () => {
          for (const s of statements) this.statement(s)
        })
      } else {
        this.expression(body)
      }
    } finally {
      this.fn = saved.fn
      this.scope = saved.scope
      this.loopDepth = saved.loopDepth
      this.path = saved.path
    }
    return info
  }

  private klass(node: Node): void {
    const scope = this.newScope("class", this.scope, this.fn, node)
    if (node.id) this.declare(node.id.name, "classInner", scope, node.end)
    for (const el of node.body.body) {
      if ((el.type === "MethodDefinition" || el.type === "PropertyDefinition") && el.key.type === "PrivateIdentifier") {
        this.declare(`#${el.key.name}`, "private", scope, 0)
      }
    }
    const derived = !!node.superClass
    this.inScope(scope, () => {
      if (node.superClass) this.expression(node.superClass)
      for (const el of node.body.body) {
        if (
          (el.type === "MethodDefinition" || el.type === "PropertyDefinition") &&
          el.key.type === "PrivateIdentifier"
        ) {
          this.privateName(el.key)
        }
        if (el.type === "MethodDefinition") {
          if (el.computed) this.expression(el.key)
          this.func(
            el.value,
            el.kind === "constructor" ? "constructor" : "method",
            el.kind === "constructor" && derived,
          )
        } else if (el.type === "PropertyDefinition") {
          if (el.computed) this.expression(el.key)
          if (el.value) this.func(el, "field")
        } else if (el.type === "StaticBlock") {
          this.func(el, "static")
        }
      }
    })
  }

  /** Decide which scopes get environments and give every binding its slot. */
  layout(): void {
    for (const s of this.allScopes) {
      if (s.kind === "function") s.hasEnv = true
      else {
        let captured = false
        for (const b of s.bindings.values()) if (b.captured) captured = true
        s.hasEnv = captured && s.inLoop
      }
    }
    for (const s of this.allScopes) {
      const owner = s.env!
      for (const b of s.bindings.values()) b.slot = owner.size++
    }
    for (const s of this.allScopes) {
      if (s.kind === "function" && s.size === 1 && s.fn.kind !== "program") s.hasEnv = false
    }
  }
}

/** Analyse a parsed program. */
export const analyze = (program: Node): Analysis => {
  const a = new Analyzer()
  const info = a.analyzeProgram(program)
  a.layout()
  return {
    program: info,
    functions: a.functions,
    scopes: a.scopes,
    refs: a.refs,
    refScopes: a.refScopes,
    supers: a.supers,
    suspends: a.suspends,
  }
}

/** Environment hops from the scope of a reference to the environment holding `binding`. */
export const hopsTo = (from: Scope, binding: Binding): number => {
  const target = binding.scope.env
  let cur = from.env
  let hops = 0
  while (cur !== target) {
    if (cur === undefined) throw new Error(`internal: binding ${binding.name} is not visible from its reference`)
    hops++
    cur = cur.parent?.env
  }
  return hops
}

export { isFunctionNode }
