/**
 * `@codemode/lang-js`: a fast, contained JavaScript subset for CodeMode programs.
 *
 * This entry point is host-side and light: it only says where the interpreter lives. The interpreter itself is
 * `./worker`, which core's sandbox worker imports.
 */
export * as JavaScript from "./JavaScript.js"
