/**
 * Creating a realm: every built-in, installed on fresh prototypes for one execution.
 */
import { forgetMatchers } from "../regexp/index.js"
import { resetArrayStorage } from "../runtime/arrays.js"
import { Realm } from "../runtime/realm.js"
import { installArray } from "./array.js"
import { installCollections } from "./collections.js"
import { installConsole } from "./console.js"
import { installDate } from "./date.js"
import { installEncoding } from "./encoding.js"
import { installErrors } from "./error.js"
import { installFunction } from "./function.js"
import { installGlobals } from "./globals.js"
import { installIteration } from "./iteration.js"
import { installJson } from "./json.js"
import { installMath } from "./math.js"
import { installNumber } from "./number.js"
import { installObject } from "./object.js"
import { reseedRandom } from "./random.js"
import { installPromise } from "./promise.js"
import { installReflect } from "./reflect.js"
import { installRegExp } from "./regexp.js"
import { installString } from "./string.js"
import { installSymbol } from "./symbol.js"
import { installUrl } from "./url.js"

let cached: Realm | undefined
/** True when `cached` was put back after its last execution (`releaseRealm`) and nothing ran since. */
let restored = false

/**
 * The realm for the next execution, activated: the worker's realm as `releaseRealm` left it, or restored now when it
 * was not (a caller that runs programs without `releaseRealm` in between), or a new one when it cannot be.
 */
export const acquireRealm = (): Realm => {
  resetArrayStorage()
  reseedRandom()
  forgetMatchers()
  if (cached !== undefined) {
    cached.activate()
    const clean = restored || restoreQuietly(cached) === undefined
    restored = false
    if (clean) return cached
    cached = undefined
  }
  cached = newRealm()
  return cached
}

/** Restore a realm; why it cannot be reused, if it cannot. */
const restoreQuietly = (realm: Realm): string | undefined => {
  try {
    return realm.restore() ? undefined : "a program left a built-in object that cannot be restored (frozen or sealed)"
  } catch (e) {
    return `restoring the built-in objects failed: ${e instanceof Error ? e.message : String(e)}`
  }
}

/**
 * Put the worker's realm back in its pristine state after an execution (the sandbox calls it once the execution's
 * result is sent). A realm that cannot be restored (a program froze a built-in) is replaced by a new one, built now
 * so that the next execution does not wait for it. Returns why this worker must not run another program when the
 * restore threw (its state is unknown).
 */
export const releaseRealm = (): string | undefined => {
  if (cached === undefined || restored) return undefined
  try {
    if (cached.restore()) {
      restored = true
      return undefined
    }
  } catch (e) {
    cached = undefined
    return `restoring the built-in objects failed: ${e instanceof Error ? e.message : String(e)}`
  }
  cached = newRealm()
  restored = true
  return undefined
}

/** A new realm with all built-ins, its pristine state recorded. */
const newRealm = (): Realm => {
  const realm = createRealm()
  realm.seal()
  return realm
}

/** Create and activate a realm with all built-ins. */
const createRealm = (): Realm => {
  const realm = new Realm()
  realm.activate()
  installObject(realm)
  installFunction(realm)
  installSymbol(realm)
  installErrors(realm)
  installIteration(realm)
  installArray(realm)
  installString(realm)
  installRegExp(realm)
  installNumber(realm)
  installMath(realm)
  installJson(realm)
  installPromise(realm)
  installCollections(realm)
  installDate(realm)
  installUrl(realm)
  installEncoding(realm)
  installGlobals(realm)
  installReflect(realm)
  installConsole(realm)
  realm.defineGlobal("Object", realm.Object)
  realm.defineGlobal("Function", realm.Function)
  realm.defineGlobal("globalThis", realm.globalObject)
  realm.defineGlobal("NaN", NaN, true)
  realm.defineGlobal("Infinity", Infinity, true)
  realm.defineGlobal("undefined", undefined, true)
  return realm
}
