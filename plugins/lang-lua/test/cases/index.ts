/** All conformance cases, by group. */
import type { Case } from "../support/case.js"
import { base } from "./base.js"
import { bytes } from "./bytes.js"
import { compiled } from "./compiled.js"
import { data } from "./data.js"
import { decoded } from "./decoded.js"
import { errors } from "./errors.js"
import { floats } from "./floats.js"
import { joining } from "./joining.js"
import { libraries } from "./libraries.js"
import { numbers } from "./numbers.js"
import { operators } from "./operators.js"
import { puc54 } from "./puc54.js"
import { raising } from "./raising.js"
import { scanning } from "./scanning.js"
import { statements } from "./statements.js"
import { strings } from "./strings.js"
import { tables } from "./tables.js"
import { traversal } from "./traversal.js"
import { varargs } from "./varargs.js"

export const allCases: Readonly<Record<string, ReadonlyArray<Case>>> = {
  statements,
  operators,
  numbers,
  base,
  strings,
  libraries,
  errors,
  data,
  compiled,
  puc54,
  tables,
  traversal,
  varargs,
  raising,
  scanning,
  decoded,
  joining,
  bytes,
  floats,
}
