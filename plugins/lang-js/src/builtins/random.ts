/**
 * `Math.random`'s generator: xoshiro128**, one state per execution, seeded from the system's cryptographic source
 * at the execution's first draw. The host thread's own generator is never used: its state outlives an execution, so
 * a program could solve it from its own draws and recover the values an earlier program on the same sandbox drew.
 */
import { getRandomValues } from "node:crypto"

const state = new Uint32Array(4)
let seeded = false

/** Forget the generator's state: the next draw seeds a fresh one. Called when an execution starts. */
export const reseedRandom = (): void => {
  seeded = false
  state.fill(0)
}

const seed = (): void => {
  // The all-zero state is the one state xoshiro never leaves.
  do getRandomValues(state)
  while ((state[0] | state[1] | state[2] | state[3]) === 0)
  seeded = true
}

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k))

/** The next 32 random bits, as an unsigned integer. */
const next32 = (): number => {
  const s = state
  const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0
  const t = s[1] << 9
  s[2] ^= s[0]
  s[3] ^= s[1]
  s[1] ^= s[2]
  s[0] ^= s[3]
  s[2] ^= t
  s[3] = rotl(s[3], 11)
  return result
}

/** A double uniformly distributed in [0, 1), with 53 random bits. */
export const random = (): number => {
  if (!seeded) seed()
  return ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992
}
