/** Generate the Lua source of random program number `seed` (see generate.mjs). */
export declare const generateProgram: (seed: number) => string
