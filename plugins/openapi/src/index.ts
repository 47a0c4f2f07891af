/**
 * `@codemode/openapi`: any OpenAPI 3.0 or 3.1 document becomes CodeMode tools.
 */
export * as OpenAPI from "./OpenAPI.js"
