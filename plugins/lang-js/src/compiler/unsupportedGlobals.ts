/**
 * Globals that exist in Node or browsers but not in CodeMode programs, with a one-line hint for each.
 */

const hints: Record<string, string> = {
  eval: "code cannot be evaluated at run time",
  Function: "functions cannot be created from strings",
  setTimeout: "there are no timers; await tool calls instead",
  setInterval: "there are no timers; await tool calls instead",
  setImmediate: "there are no timers; await tool calls instead",
  clearTimeout: "there are no timers",
  clearInterval: "there are no timers",
  clearImmediate: "there are no timers",
  queueMicrotask: "use Promise.resolve().then(...) instead",
  process: "programs have no process; use the tools and globals the host provides",
  require: "use the import forms the host allows",
  module: "programs are not CommonJS modules; return the result instead",
  exports: "programs are not CommonJS modules; return the result instead",
  __dirname: "programs have no file system location",
  __filename: "programs have no file system location",
  global: "use globalThis",
  window: "programs do not run in a browser",
  document: "programs do not run in a browser",
  fetch: "the host did not provide fetch; use the tools instead",
  XMLHttpRequest: "use the tools instead",
  WebSocket: "use the tools instead",
  Buffer: "the host did not provide Buffer; use TextEncoder/TextDecoder",
  Proxy: "proxies are not supported",
  BigInt: "BigInt is not supported; use numbers",
  WeakRef: "weak references are not supported",
  FinalizationRegistry: "finalizers are not supported",
  SharedArrayBuffer: "shared memory is not supported",
  Atomics: "shared memory is not supported",
  WebAssembly: "WebAssembly is not supported",
  Intl: "Intl is not supported; format values yourself",
  ArrayBuffer: "binary buffers are not supported; use arrays of numbers or Uint8Array",
  DataView: "binary buffers are not supported",
  Worker: "workers are not supported",
  performance: "timing is not available",
  crypto: "the host did not provide crypto",
  AbortController: "cancellation is not available",
  Blob: "binary data is not supported",
}

/** The hint for a global a program may expect but CodeMode does not provide, if it is one. */
export const unsupportedGlobalHint = (name: string): string | undefined =>
  Object.prototype.hasOwnProperty.call(hints, name) ? hints[name] : undefined
