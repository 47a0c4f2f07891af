/**
 * Flat results. A string built from pieces (`a + b`, a template literal) is kept by the host engine as a tree of
 * its pieces until something reads its characters; a program that keeps many such strings (rows of a report in a
 * list) has every tree node copied by each young-generation collection it survives. A flat string is one object,
 * and the tree's nodes die young.
 */

/** Results up to this length are made flat (longer ones are rarely kept in numbers, and flattening copies them). */
const FLAT_RESULT = 4096

/** A value read from every flattened string, so that the read cannot be optimised away. */
let _sink = 0

/**
 * `s`, made flat when it is short: reading a character of a tree of pieces makes the engine flatten it in place.
 * Strings under 13 characters are always flat.
 */
export const flatIfShort = (s: string): string => {
  if (s.length > 12 && s.length <= FLAT_RESULT) _sink ^= s.charCodeAt(0)
  return s
}
