/**
 * Creating a realm: every built-in, installed on fresh prototypes for one execution.
 */
import { Realm } from "../runtime/realm.js"
import { installArray } from "./array.js"
import { installConsole } from "./console.js"
import { installErrors } from "./error.js"
import { installFunction } from "./function.js"
import { installIteration } from "./iteration.js"
import { installObject } from "./object.js"
import { installPromise } from "./promise.js"
import { installSymbol } from "./symbol.js"

/** Create and activate a realm with all built-ins. */
export const createRealm = (): Realm => {
  const realm = new Realm()
  realm.activate()
  installObject(realm)
  installFunction(realm)
  installSymbol(realm)
  installErrors(realm)
  installIteration(realm)
  installArray(realm)
  installPromise(realm)
  installConsole(realm)
  realm.defineGlobal("Object", realm.Object)
  realm.defineGlobal("Function", realm.Function)
  realm.defineGlobal("globalThis", realm.globalObject)
  realm.defineGlobal("NaN", NaN)
  realm.defineGlobal("Infinity", Infinity)
  return realm
}
