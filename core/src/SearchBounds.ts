/**
 * The bounds of a search request, on their own so that the sandbox can refuse an oversized query before it crosses
 * the channel (effect-free; the sandbox imports it).
 */

/** The largest page a program may ask for. */
export const maxLimit = 100

/** The longest query (or namespace) accepted, in characters. */
export const maxQueryLength = 1_000

/** The most distinct words (stopwords aside) a query may have. */
export const maxQueryWords = 32

/** Why a query or namespace of `length` characters is refused, or `undefined` when it is within the bound. */
export const tooLong = (what: "query" | "namespace", length: number): string | undefined =>
  length <= maxQueryLength
    ? undefined
    : `search: the ${what} has ${length} characters; at most ${maxQueryLength} are accepted. Use a few keywords or an exact path`
