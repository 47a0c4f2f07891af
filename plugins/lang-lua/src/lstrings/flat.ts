/**
 * Flat results. A string built by appending (`out += piece`) is kept by the engine as a tree of its pieces; a program
 * usually keeps what `string.format` returns (lines of a report, in a table), and every node of every tree it keeps
 * is copied by each young-generation collection it survives. A flat string is one object, and the tree's nodes die
 * young (a report of 60,000 formatted lines: garbage collection -65%).
 */

/** Results up to this length are made flat (longer ones are rarely kept in numbers; flattening copies them). */
const FLAT_RESULT = 4096

/** A value read from every flattened string, so that the read cannot be optimised away. */
let _read = 0

/**
 * `s`, made flat when it is short: reading a character of a tree of pieces makes the engine flatten it in place.
 * Strings under 13 characters are always flat.
 */
export const flatIfShort = (s: string): string => {
  if (s.length > 12 && s.length <= FLAT_RESULT) _read ^= s.charCodeAt(0)
  return s
}
