/**
 * The JavaScript language as core sees it: where the sandbox worker finds the interpreter.
 */

/** URL of the module the sandbox worker imports to run JavaScript programs (it exports `run(request, host)`). */
export const workerModule: string = new URL("./worker.js", import.meta.url).href
