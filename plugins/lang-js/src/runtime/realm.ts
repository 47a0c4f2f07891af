/**
 * The realm: one execution's own set of prototypes, constructors and globals.
 *
 * Every execution gets fresh prototypes, so what a program does to `Array.prototype` stays inside that execution.
 * Plain objects, arrays and functions are instances of host classes created for this realm whose `prototype`
 * objects *are* the realm's `Object.prototype`, `Array.prototype` and `Function.prototype` (re-parented and
 * stripped of their host `constructor`), which keeps allocation as fast as host literals while no prototype chain
 * ever reaches a host object.
 */
import type { ErrorName } from "./errors.js"
import {
  materialize,
  programAccessor,
  type Call3Impl,
  type CallImpl,
  type CallNImpl,
  type Construct3Impl,
  type ConstructImpl,
  type Value,
} from "./functions.js"
import {
  BRAND,
  Brand,
  CALL,
  CALL3,
  CALLN,
  CONSTRUCT,
  CONSTRUCT3,
  ENV,
  HOME,
  isInternalKey,
  META,
  type FunctionMeta,
} from "./internals.js"
import { noteCreation } from "./errors.js"
import { defineLazyStack } from "./stacks.js"
import { rt } from "./state.js"

/** A global variable's storage: compiled code reads and writes the cell directly. */
export interface Cell {
  value: Value
}

/** The class of a program function object. */
export type FunctionClass = new (
  call: CallImpl | undefined,
  construct: ConstructImpl | undefined,
  env: unknown,
  meta: FunctionMeta,
  home: Value,
  call3?: Call3Impl,
  construct3?: Construct3Impl,
  callN?: CallNImpl,
) => Value

/** How new function objects are made. */
interface CreationState {
  /** Whether they get their own `length`, `name` and `prototype` at once (while built-ins are installed). */
  eager: boolean
  /** The prototype of async and generator functions (`%AsyncFunction.prototype%`...), by their display kind. */
  readonly kindPrototypes: Map<string, Value>
}

/** The most keys of an object literal made by a constructor of its size (`Realm.objectOfSize`). */
const MAX_SIZED_OBJECT = 8

const makeClasses = (state: CreationState) => {
  const SO = class {} as unknown as new () => Value
  const ObjectProto = SO.prototype as Value
  delete ObjectProto.constructor
  Object.setPrototypeOf(ObjectProto, null)

  // One constructor per literal size: each has an initial map of its own, which the host engine sizes to the
  // properties its objects get (one map for objects of every size leaves slots unused in small ones and moves the
  // properties of large ones out of the object).
  const sizedObjects: Array<new () => Value> = []
  for (let i = 0; i <= MAX_SIZED_OBJECT; i++) {
    const F = function () {} as unknown as { prototype: Value }
    F.prototype = ObjectProto
    sizedObjects.push(F as unknown as new () => Value)
  }

  const SA = class extends Array {} as unknown as new () => Value[]
  const ArrayProto = SA.prototype as Value
  delete ArrayProto.constructor
  Object.setPrototypeOf(ArrayProto, ObjectProto)

  const SF = class {
    // Declared, so that the constructor's stores are to own fields: a store that adds a symbol-keyed property
    // depends on the prototype chain and went megamorphic in the host JIT (a third of the cost of a closure).
    [CALL]: CallImpl | undefined = undefined;
    [CALL3]: Call3Impl | undefined = undefined;
    [CALLN]: CallNImpl | undefined = undefined;
    [CONSTRUCT]: ConstructImpl | undefined = undefined;
    [CONSTRUCT3]: Construct3Impl | undefined = undefined;
    [ENV]: unknown = undefined;
    [META]: FunctionMeta | undefined = undefined;
    [HOME]: Value = undefined
    constructor(
      call: CallImpl | undefined,
      construct: ConstructImpl | undefined,
      env: unknown,
      meta: FunctionMeta,
      home: Value,
      call3?: Call3Impl,
      construct3?: Construct3Impl,
      callN?: CallNImpl,
    ) {
      const self = this as Value
      self[CALL] = call
      self[CALL3] = call3
      self[CALLN] = callN
      self[CONSTRUCT] = construct
      self[CONSTRUCT3] = construct3
      self[ENV] = env
      self[META] = meta
      self[HOME] = home
      const display = meta.display
      let eager = state.eager || display === "class"
      if (display !== "function") {
        const kindPrototype = state.kindPrototypes.get(display)
        if (kindPrototype !== undefined) {
          Object.setPrototypeOf(self, kindPrototype)
          // A generator function's own prototype must shadow %GeneratorFunction.prototype%.prototype at once.
          if (meta.protoKind !== "none") eager = true
        }
      }
      // Classes get their own properties before their static members; built-ins before their methods.
      if (eager) materialize(self)
    }
  } as unknown as FunctionClass
  const FunctionProto = SF.prototype as Value
  delete FunctionProto.constructor
  Object.setPrototypeOf(FunctionProto, ObjectProto)
  return { SO, SA, SF, ObjectProto, ArrayProto, FunctionProto, sizedObjects }
}

/** The pristine state of one built-in object. */
interface ObjectSnapshot {
  readonly object: Value
  readonly proto: Value
  readonly keys: ReadonlyArray<PropertyKey>
  readonly descriptors: ReadonlyArray<PropertyDescriptor>
  /** Only interpreter-internal keys: the program can only add keys, freeze it or change its prototype. */
  readonly internalOnly: boolean
  /**
   * The indices (in `keys`) of the keys a program can name. No program can name an interpreter-internal key, so it
   * cannot redefine or delete one: while the object has the same keys, only these descriptors can differ.
   */
  readonly nameable: ReadonlyArray<number>
  /** Extensible when sealed (a built-in such as `%ThrowTypeError%` is not, and stays so). */
  readonly extensible: boolean
  /** Its own enumerable string keys (`Object.keys`), in order. */
  readonly enumerable: ReadonlyArray<string>
  /**
   * The indices (in `keys`) of the nameable writable data properties: while `Realm.redefined` is clear and the
   * enumerable keys are the same, only their values can differ.
   */
  readonly writable: ReadonlyArray<number>
  /**
   * Always compared whole: the global object (each execution defines globals on it) and objects with integer keys
   * (array built-ins delete elements without noting it).
   */
  readonly whole: boolean
}

const sameDescriptor = (a: PropertyDescriptor, b: PropertyDescriptor): boolean =>
  Object.is(a.value, b.value) &&
  a.get === b.get &&
  a.set === b.set &&
  a.writable === b.writable &&
  a.enumerable === b.enumerable &&
  a.configurable === b.configurable

/** True when two key lists are equal, element by element. */
const sameList = (a: ReadonlyArray<PropertyKey>, b: ReadonlyArray<PropertyKey>): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Put `o`'s keys (a subset of the recorded ones) back in the recorded order: a deleted key comes back last, so from
 * the first key out of place on, every key is taken off again and `restore` defines them in order. False when one
 * cannot be deleted.
 */
const restoreOrder = (o: Value, snap: ObjectSnapshot): boolean => {
  const keys = Reflect.ownKeys(o)
  let i = 0
  while (i < keys.length && keys[i] === snap.keys[i]) i++
  if (i === keys.length) return true
  for (; i < snap.keys.length; i++) if (!Reflect.deleteProperty(o, snap.keys[i])) return false
  return true
}

/** Put back the property `snap.keys[i]` of `o` as recorded. False when that is impossible. */
const restoreKey = (o: Value, snap: ObjectSnapshot, i: number): boolean => {
  const k = snap.keys[i]
  const have = Object.getOwnPropertyDescriptor(o, k)
  if (have !== undefined) {
    if (sameDescriptor(have, snap.descriptors[i])) return true
    if (!have.configurable) return false
  }
  Object.defineProperty(o, k, snap.descriptors[i])
  return true
}

/**
 * A realm: the prototypes, constructors and globals programs run against. Built-in modules fill it in once; after
 * every execution `restore` puts every built-in object back exactly as it was, so the next execution starts from a
 * pristine realm while the host JIT keeps seeing the same object shapes (which is what keeps calls and property
 * reads fast across executions). A realm that cannot be restored (a program froze a prototype) is discarded.
 */
export class Realm {
  /** Plain objects: `new SO()` has the realm's `Object.prototype`. */
  readonly SO: new () => Value
  private readonly sizedObjects: ReadonlyArray<new () => Value>
  /** Arrays: `new SA()` is a host array whose prototype is the realm's `Array.prototype`. */
  readonly SA: new () => Value[]
  /** Function objects. */
  readonly SF: FunctionClass
  readonly ObjectProto: Value
  readonly ArrayProto: Value
  readonly FunctionProto: Value

  StringProto: Value = null
  NumberProto: Value = null
  BooleanProto: Value = null
  SymbolProto: Value = null
  ErrorProto: Value = null
  readonly errorProtos: Partial<Record<ErrorName, Value>> = {}
  readonly errorConstructors: Partial<Record<ErrorName, Value>> = {}
  IteratorProto: Value = null
  AsyncIteratorProto: Value = null
  ArrayIteratorProto: Value = null
  MapIteratorProto: Value = null
  SetIteratorProto: Value = null
  StringIteratorProto: Value = null
  RegExpStringIteratorProto: Value = null
  GeneratorProto: Value = null
  AsyncGeneratorProto: Value = null
  AsyncFromSyncIteratorProto: Value = null
  PromiseProto: Value = null
  Promise: Value = null
  MapProto: Value = null
  SetProto: Value = null
  WeakMapProto: Value = null
  WeakSetProto: Value = null
  DateProto: Value = null
  RegExpProto: Value = null
  RegExp: Value = null
  URLProto: Value = null
  URLSearchParamsProto: Value = null
  Uint8ArrayProto: Value = null
  /** The accessor pair of `%ThrowTypeError%` (strict `arguments.callee`; installed with `Function.prototype`). */
  throwTypeErrorAccessor: { readonly get: () => Value; readonly set: (v: Value) => void } = {
    get: () => undefined,
    set: () => {},
  }
  Object: Value = null
  Array: Value = null
  Function: Value = null
  /** The original `Array.prototype.values` (for-of takes a fast path while arrays still use it). */
  arrayValues: Value = null
  /** The original `%ArrayIteratorPrototype%.next`. */
  arrayIteratorNext: Value = null
  /** The original `String.prototype[Symbol.iterator]`. */
  stringIterator: Value = null
  /** The original `Map.prototype.entries` and `%MapIteratorPrototype%.next`. */
  mapEntries: Value = null
  mapIteratorNext: Value = null
  /** The original `Set.prototype.values` and `%SetIteratorPrototype%.next`. */
  setValues: Value = null
  setIteratorNext: Value = null
  /** Create a program `RegExp` (installed by the RegExp built-in). */
  makeRegExp: (pattern: string, flags: string) => Value = () => {
    throw new Error("internal: RegExp is not installed")
  }
  /**
   * Set once the program gave `Array.prototype` or `Object.prototype` an element (or re-parented
   * `Array.prototype`): built-ins then define the elements of the arrays they create instead of assigning them, so
   * no inherited setter runs.
   */
  protoElements = false
  /**
   * Set once the program redefined or deleted a property of `RegExp.prototype` (its accessors can change no other
   * way); a RegExp with a property redefined on itself is in `customizedRegExps`. Either takes the RegExp built-ins
   * off their host fast paths.
   */
  regExpProtoTouched = false
  readonly customizedRegExps = new WeakSet<object>()
  /**
   * Set once a program may have changed a built-in object in a way its enumerable keys and its writable values do
   * not show: redefined or deleted a property of any object (`defineProperty` and its variants, `delete`, the
   * integrity functions, a `JSON.parse` reviver), or given a built-in a symbol-keyed or non-enumerable property
   * (a symbol-keyed assignment, `Object.assign` or `Reflect.set` onto it, class fields on it, an error's `stack`
   * setter run on it). `restore` then compares every key and descriptor. While it is clear, an ordinary assignment
   * is the only way a built-in can have changed: it adds enumerable string keys or changes writable data values,
   * which is all `restore` compares (with its prototype and extensibility).
   */
  redefined = false
  /** The objects `seal` recorded (see `noteChangeOf`). */
  private readonly builtins = new WeakSet<object>()
  /** `Function.prototype`'s `name`/`length` the program deleted (they stay as accessors for unmaterialized functions). */
  readonly deletedFunctionProtoKeys = new Set<string>()
  /** The program's `globalThis`. */
  readonly globalObject: Value
  /** Global variables by name. */
  readonly cells = new Map<string, Cell>()
  /**
   * The cells of globals an execution defined (`tools`, `search`, extension globals), emptied by `restore`: the next
   * execution that defines the same name gets the same cell, so compiled code kept across executions (which reads
   * a global's cell directly) sees that execution's value.
   */
  private readonly spareCells = new Map<string, Cell>()
  /** `Symbol.for` registry of this execution. */
  readonly symbolRegistry = new Map<string, symbol>()
  /** The symbols in `symbolRegistry` (they cannot be weak keys). */
  readonly registeredSymbols = new Set<symbol>()
  /** Per-execution state of built-ins (console counters...) to clear before each execution. */
  readonly resetHooks: Array<() => void> = []
  private snapshots: ObjectSnapshot[] = []
  private cellSnapshot = new Map<string, Value>()
  private readonly creation: CreationState = { eager: true, kindPrototypes: new Map() }

  constructor() {
    const c = makeClasses(this.creation)
    this.SO = c.SO
    this.sizedObjects = c.sizedObjects
    this.SA = c.SA
    this.SF = c.SF
    this.ObjectProto = c.ObjectProto
    this.ArrayProto = c.ArrayProto
    this.FunctionProto = c.FunctionProto
    this.globalObject = new c.SO()
  }

  /**
   * The constructor of plain objects for a literal of `size` plain keys: like `SO`, but with an initial map shared
   * only with literals of that size, so that the engine gives their objects room for exactly their properties.
   */
  objectOfSize(size: number): new () => Value {
    return size > 0 && size < this.sizedObjects.length ? this.sizedObjects[size] : this.SO
  }

  /** A new empty plain object. */
  newObject(): Value {
    return new this.SO()
  }

  /** A new program array holding `items` (copied). */
  newArray(items?: ArrayLike<Value>): Value[] {
    const a = new this.SA()
    if (items !== undefined) for (let i = 0; i < items.length; i++) a[i] = items[i]
    return a
  }

  /** Adopt a fresh host array (made by a host built-in) as a program array without copying. */
  adoptArray(hostArray: Value[]): Value[] {
    Object.setPrototypeOf(hostArray, this.ArrayProto)
    return hostArray
  }

  /** Create one of the program's error objects. */
  makeError(name: ErrorName, message: string): Value {
    const e = Object.create(this.errorProtos[name] ?? this.ErrorProto)
    e[BRAND] = Brand.Error
    noteCreation(e)
    defineLazyStack(e)
    Object.defineProperty(e, "message", { value: message, writable: true, enumerable: false, configurable: true })
    return e
  }

  /**
   * Define (or replace) a global variable and its `globalThis` property (an accessor over the variable's cell,
   * which reflection shows as the data property the language has). A `readonly` one (`NaN`, `Infinity`,
   * `undefined`) cannot be assigned or deleted.
   */
  defineGlobal(name: string, value: Value, readonly = false): void {
    const existing = this.cells.get(name)
    if (existing) {
      existing.value = value
      return
    }
    const spare = this.spareCells.get(name)
    const cell: Cell = spare ?? { value }
    cell.value = value
    this.spareCells.delete(name)
    this.cells.set(name, cell)
    if (readonly) this.readonlyGlobals.add(name)
    Object.defineProperty(this.globalObject, name, {
      get: () => cell.value,
      set: readonly
        ? undefined
        : (v: Value) => {
            cell.value = v
          },
      enumerable: false,
      configurable: !readonly,
    })
  }

  /** The global variables that cannot be assigned or deleted. */
  readonly readonlyGlobals = new Set<string>()

  /** Give functions of a display kind ("async function", "generator function"...) their own prototype. */
  setFunctionKindPrototype(display: string, proto: Value): void {
    this.creation.kindPrototypes.set(display, proto)
  }

  /**
   * Note that `o` is about to get a property its enumerable keys will not show (a symbol key, a class field, a
   * non-enumerable one): when it is a built-in object, `restore` compares everything (see `redefined`).
   */
  noteChangeOf(o: object): void {
    if (this.builtins.has(o)) this.redefined = true
  }

  /** Make this realm the running one. */
  activate(): void {
    rt.realm = this
  }

  /** Record the pristine state of every built-in object (call once, after all built-ins are installed). */
  seal(): void {
    this.creation.eager = false
    const seen = new Set<Value>()
    const queue: Value[] = [this.globalObject]
    for (const v of Object.values(this))
      if (typeof v === "object" && v !== null && !(v instanceof Map) && !Array.isArray(v)) queue.push(v)
    for (const v of Object.values(this.errorProtos)) queue.push(v)
    for (const v of this.creation.kindPrototypes.values()) queue.push(v)
    for (const v of Object.values(this.errorConstructors)) queue.push(v)
    for (const cell of this.cells.values())
      if (typeof cell.value === "object" && cell.value !== null) queue.push(cell.value)
    const visit = (v: Value) => {
      if (typeof v === "object" && v !== null && !seen.has(v)) queue.push(v)
    }
    while (queue.length > 0) {
      const o = queue.pop()
      if (seen.has(o)) continue
      seen.add(o)
      const keys = Reflect.ownKeys(o)
      const descriptors = keys.map((k) => Object.getOwnPropertyDescriptor(o, k)!)
      const nameable: number[] = []
      for (let i = 0; i < keys.length; i++) {
        if (isInternalKey(keys[i])) continue
        nameable.push(i)
        const d = descriptors[i]
        if ("value" in d) visit(d.value)
        else {
          visit(programAccessor(d.get))
          visit(programAccessor(d.set))
        }
      }
      const proto = Object.getPrototypeOf(o)
      visit(proto)
      const internalOnly = nameable.length === 0
      const writable = nameable.filter((i) => descriptors[i].writable === true)
      const elements = keys.some((k) => typeof k === "string" && /^(0|[1-9][0-9]*)$/.test(k))
      this.builtins.add(o)
      this.snapshots.push({
        object: o,
        proto,
        keys,
        descriptors,
        internalOnly,
        nameable,
        extensible: Object.isExtensible(o),
        enumerable: Object.keys(o),
        writable,
        whole: elements || o === this.globalObject,
      })
    }
    this.cellSnapshot = new Map([...this.cells].map(([k, c]) => [k, c.value]))
    this.redefined = false
  }

  /** Put every built-in object and global back as `seal` recorded them. False when that is impossible. */
  restore(): boolean {
    const quick = !this.redefined
    for (const snap of this.snapshots) {
      const o = snap.object
      if (snap.extensible && !Object.isExtensible(o)) return false
      if (Object.getPrototypeOf(o) !== snap.proto) Object.setPrototypeOf(o, snap.proto)
      if (quick && !snap.whole && sameList(Object.keys(o), snap.enumerable)) {
        // Own data properties: reading them runs no program code.
        for (let j = 0; j < snap.writable.length; j++) {
          const i = snap.writable[j]
          if (!Object.is(o[snap.keys[i]], snap.descriptors[i].value) && !restoreKey(o, snap, i)) return false
        }
        continue
      }
      const keys = Reflect.ownKeys(o)
      if (snap.internalOnly && keys.length === snap.keys.length) continue
      if (sameList(keys, snap.keys)) {
        for (let j = 0; j < snap.nameable.length; j++) if (!restoreKey(o, snap, snap.nameable[j])) return false
        continue
      }
      for (const k of keys) {
        if (!snap.keys.includes(k) && !Reflect.deleteProperty(o, k)) return false
      }
      if (!restoreOrder(o, snap)) return false
      for (let i = 0; i < snap.keys.length; i++) if (!restoreKey(o, snap, i)) return false
    }
    for (const [name, cell] of this.cells) {
      if (this.cellSnapshot.has(name)) continue
      cell.value = undefined
      this.spareCells.set(name, cell)
      this.cells.delete(name)
    }
    for (const [name, value] of this.cellSnapshot) this.cells.get(name)!.value = value
    this.symbolRegistry.clear()
    this.registeredSymbols.clear()
    this.redefined = false
    this.protoElements = false
    this.deletedFunctionProtoKeys.clear()
    this.regExpProtoTouched = false
    for (const hook of this.resetHooks) hook()
    return true
  }
}
