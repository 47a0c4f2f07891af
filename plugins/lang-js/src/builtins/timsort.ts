/**
 * The sort behind `Array.prototype.sort` and `toSorted` with a comparator: TimSort (natural runs extended by
 * binary insertion to a minimum run length, merged under the run-length invariants, with galloping) making the same
 * comparisons in the same order as the host's own `Array.prototype.sort`. A program's comparator is therefore called
 * with the same pairs as under Node, and an inconsistent one (`(a, b) => a > b`, a random order) leaves the same
 * order. Run here rather than by the host sort, the comparator wrapper inlines into the loop and no call crosses from
 * the host's built-in code into ours.
 */

/** The order of two values as the sort reads it: negative when `a` goes first (already a number, NaN made 0). */
export type Order<T> = (a: T, b: T) => number

/** Wins in a row by one run that start a merge galloping (the threshold then adapts, never below 1). */
const MIN_GALLOP = 7

/** One sort in progress: its list, comparator, galloping threshold and the stack of pending runs. */
interface SortState<T> {
  readonly list: T[]
  readonly order: Order<T>
  minGallop: number
  readonly runBase: number[]
  readonly runLength: number[]
}

/** The minimum run length for `n` elements: `n` itself below 64, else between 32 and 64. */
const minRunLength = (n: number): number => {
  let r = 0
  while (n >= 64) {
    r |= n & 1
    n >>= 1
  }
  return n + r
}

/** Copy `count` elements within or between lists; overlapping ranges keep their order. */
const copy = <T>(from: T[], fromIndex: number, to: T[], toIndex: number, count: number): void => {
  if (fromIndex < toIndex) for (let i = count - 1; i >= 0; i--) to[toIndex + i] = from[fromIndex + i]
  else for (let i = 0; i < count; i++) to[toIndex + i] = from[fromIndex + i]
}

/** Sort `list[low..high)` by binary insertion, its first `start - low` elements being sorted already. */
const binaryInsertionSort = <T>(s: SortState<T>, low: number, startArg: number, high: number): void => {
  const list = s.list
  const order = s.order
  for (let start = low === startArg ? startArg + 1 : startArg; start < high; start++) {
    let left = low
    let right = start
    const pivot = list[start]
    while (left < right) {
      const mid = left + ((right - left) >> 1)
      if (order(pivot, list[mid]) < 0) right = mid
      else left = mid + 1
    }
    for (let p = start; p > left; p--) list[p] = list[p - 1]
    list[left] = pivot
  }
}

/** The length of the run starting at `low` (before `high`); a strictly descending run is reversed in place. */
const countAndMakeRun = <T>(s: SortState<T>, low: number, high: number): number => {
  const list = s.list
  const order = s.order
  if (low + 1 === high) return 1
  let runLength = 2
  const descending = order(list[low + 1], list[low]) < 0
  let previous = list[low + 1]
  for (let i = low + 2; i < high; i++) {
    const current = list[i]
    const o = order(current, previous)
    if (descending ? o >= 0 : o < 0) break
    previous = current
    runLength++
  }
  if (descending) {
    for (let i = low, j = low + runLength - 1; i < j; i++, j--) {
      const x = list[i]
      list[i] = list[j]
      list[j] = x
    }
  }
  return runLength
}

/**
 * Where `key` goes in the sorted `list[base..base+length)`, before every element equal to it, searching out from
 * `hint` by doubling steps and then by bisection.
 */
const gallopLeft = <T>(order: Order<T>, list: T[], key: T, base: number, length: number, hint: number): number => {
  let lastOffset = 0
  let offset = 1
  if (order(list[base + hint], key) < 0) {
    const maxOffset = length - hint
    while (offset < maxOffset) {
      if (order(list[base + hint + offset], key) >= 0) break
      lastOffset = offset
      offset = (offset << 1) + 1
    }
    if (offset > maxOffset) offset = maxOffset
    lastOffset += hint
    offset += hint
  } else {
    const maxOffset = hint + 1
    while (offset < maxOffset) {
      if (order(list[base + hint - offset], key) < 0) break
      lastOffset = offset
      offset = (offset << 1) + 1
    }
    if (offset > maxOffset) offset = maxOffset
    const t = lastOffset
    lastOffset = hint - offset
    offset = hint - t
  }
  lastOffset++
  while (lastOffset < offset) {
    const m = lastOffset + ((offset - lastOffset) >> 1)
    if (order(list[base + m], key) < 0) lastOffset = m + 1
    else offset = m
  }
  return offset
}

/** Like `gallopLeft`, but the place after every element equal to `key`. */
const gallopRight = <T>(order: Order<T>, list: T[], key: T, base: number, length: number, hint: number): number => {
  let lastOffset = 0
  let offset = 1
  if (order(key, list[base + hint]) < 0) {
    const maxOffset = hint + 1
    while (offset < maxOffset) {
      if (order(key, list[base + hint - offset]) >= 0) break
      lastOffset = offset
      offset = (offset << 1) + 1
    }
    if (offset > maxOffset) offset = maxOffset
    const t = lastOffset
    lastOffset = hint - offset
    offset = hint - t
  } else {
    const maxOffset = length - hint
    while (offset < maxOffset) {
      if (order(key, list[base + hint + offset]) < 0) break
      lastOffset = offset
      offset = (offset << 1) + 1
    }
    if (offset > maxOffset) offset = maxOffset
    lastOffset += hint
    offset += hint
  }
  lastOffset++
  while (lastOffset < offset) {
    const m = lastOffset + ((offset - lastOffset) >> 1)
    if (order(key, list[base + m]) < 0) offset = m
    else lastOffset = m + 1
  }
  return offset
}

/** Merge the adjacent sorted runs A (the shorter) and B from the left, A copied out first. */
const mergeLow = <T>(s: SortState<T>, baseA: number, lengthA: number, baseB: number, lengthB: number): void => {
  const list = s.list
  const order = s.order
  const temp = list.slice(baseA, baseA + lengthA)
  let dest = baseA
  let cursorTemp = 0
  let cursorB = baseB
  list[dest++] = list[cursorB++]
  // Set when the merge ends with A down to its last element, which then goes after what is left of B.
  let lastOfA = --lengthB !== 0 && lengthA === 1
  if (lengthB !== 0 && !lastOfA) {
    let minGallop = s.minGallop
    merge: for (;;) {
      let winsA = 0
      let winsB = 0
      for (;;) {
        if (order(list[cursorB], temp[cursorTemp]) < 0) {
          list[dest++] = list[cursorB++]
          winsB++
          winsA = 0
          if (--lengthB === 0) break merge
          if (winsB >= minGallop) break
        } else {
          list[dest++] = temp[cursorTemp++]
          winsA++
          winsB = 0
          if (--lengthA === 1) {
            lastOfA = true
            break merge
          }
          if (winsA >= minGallop) break
        }
      }
      minGallop++
      let first = true
      while (winsA >= MIN_GALLOP || winsB >= MIN_GALLOP || first) {
        first = false
        minGallop = Math.max(1, minGallop - 1)
        s.minGallop = minGallop
        winsA = gallopRight(order, temp, list[cursorB], cursorTemp, lengthA, 0)
        if (winsA > 0) {
          copy(temp, cursorTemp, list, dest, winsA)
          dest += winsA
          cursorTemp += winsA
          lengthA -= winsA
          if (lengthA === 1) {
            lastOfA = true
            break merge
          }
          // Only an inconsistent comparator empties A here.
          if (lengthA === 0) break merge
        }
        list[dest++] = list[cursorB++]
        if (--lengthB === 0) break merge
        winsB = gallopLeft(order, list, temp[cursorTemp], cursorB, lengthB, 0)
        if (winsB > 0) {
          copy(list, cursorB, list, dest, winsB)
          dest += winsB
          cursorB += winsB
          lengthB -= winsB
          if (lengthB === 0) break merge
        }
        list[dest++] = temp[cursorTemp++]
        if (--lengthA === 1) {
          lastOfA = true
          break merge
        }
      }
      minGallop++
      s.minGallop = minGallop
    }
  }
  if (lastOfA) {
    copy(list, cursorB, list, dest, lengthB)
    list[dest + lengthB] = temp[cursorTemp]
  } else if (lengthA > 0) copy(temp, cursorTemp, list, dest, lengthA)
}

/** Merge the adjacent sorted runs A and B (the shorter) from the right, B copied out first. */
const mergeHigh = <T>(s: SortState<T>, baseA: number, lengthA: number, baseB: number, lengthB: number): void => {
  const list = s.list
  const order = s.order
  const temp = list.slice(baseB, baseB + lengthB)
  let dest = baseB + lengthB - 1
  let cursorTemp = lengthB - 1
  let cursorA = baseA + lengthA - 1
  list[dest--] = list[cursorA--]
  // Set when the merge ends with B down to its first element, which then goes before what is left of A.
  let firstOfB = --lengthA !== 0 && lengthB === 1
  if (lengthA !== 0 && !firstOfB) {
    let minGallop = s.minGallop
    merge: for (;;) {
      let winsA = 0
      let winsB = 0
      for (;;) {
        if (order(temp[cursorTemp], list[cursorA]) < 0) {
          list[dest--] = list[cursorA--]
          winsA++
          winsB = 0
          if (--lengthA === 0) break merge
          if (winsA >= minGallop) break
        } else {
          list[dest--] = temp[cursorTemp--]
          winsB++
          winsA = 0
          if (--lengthB === 1) {
            firstOfB = true
            break merge
          }
          if (winsB >= minGallop) break
        }
      }
      minGallop++
      let first = true
      while (winsA >= MIN_GALLOP || winsB >= MIN_GALLOP || first) {
        first = false
        minGallop = Math.max(1, minGallop - 1)
        s.minGallop = minGallop
        winsA = lengthA - gallopRight(order, list, temp[cursorTemp], baseA, lengthA, lengthA - 1)
        if (winsA > 0) {
          dest -= winsA
          cursorA -= winsA
          copy(list, cursorA + 1, list, dest + 1, winsA)
          lengthA -= winsA
          if (lengthA === 0) break merge
        }
        list[dest--] = temp[cursorTemp--]
        if (--lengthB === 1) {
          firstOfB = true
          break merge
        }
        winsB = lengthB - gallopLeft(order, temp, list[cursorA], 0, lengthB, lengthB - 1)
        if (winsB > 0) {
          dest -= winsB
          cursorTemp -= winsB
          copy(temp, cursorTemp + 1, list, dest + 1, winsB)
          lengthB -= winsB
          if (lengthB === 1) {
            firstOfB = true
            break merge
          }
          // Only an inconsistent comparator empties B here.
          if (lengthB === 0) break merge
        }
        list[dest--] = list[cursorA--]
        if (--lengthA === 0) break merge
      }
      minGallop++
      s.minGallop = minGallop
    }
  }
  if (firstOfB) {
    dest -= lengthA
    cursorA -= lengthA
    copy(list, cursorA + 1, list, dest + 1, lengthA)
    list[dest] = temp[cursorTemp]
  } else if (lengthB > 0) copy(temp, 0, list, dest - (lengthB - 1), lengthB)
}

/** Merge the pending runs `i` and `i + 1` into one. */
const mergeAt = <T>(s: SortState<T>, i: number): void => {
  const { list, order, runBase, runLength } = s
  let baseA = runBase[i]
  let lengthA = runLength[i]
  const baseB = runBase[i + 1]
  let lengthB = runLength[i + 1]
  runLength[i] = lengthA + lengthB
  if (i === runBase.length - 3) {
    runBase[i + 1] = runBase[i + 2]
    runLength[i + 1] = runLength[i + 2]
  }
  runBase.pop()
  runLength.pop()
  // What of A already precedes B's first element, and what of B already follows A's last, stay where they are.
  const k = gallopRight(order, list, list[baseB], baseA, lengthA, 0)
  baseA += k
  lengthA -= k
  if (lengthA === 0) return
  lengthB = gallopLeft(order, list, list[baseA + lengthA - 1], baseB, lengthB, lengthB - 1)
  if (lengthB === 0) return
  if (lengthA <= lengthB) mergeLow(s, baseA, lengthA, baseB, lengthB)
  else mergeHigh(s, baseA, lengthA, baseB, lengthB)
}

/** Whether the runs below run `n` keep the invariant that each is longer than the two above it together. */
const invariantHolds = (runLength: number[], n: number): boolean =>
  n < 2 || runLength[n - 2] > runLength[n - 1] + runLength[n]

/** Merge pending runs until the run-length invariants hold again. */
const mergeCollapse = <T>(s: SortState<T>): void => {
  const runLength = s.runLength
  while (runLength.length > 1) {
    let n = runLength.length - 2
    if (!invariantHolds(runLength, n + 1) || !invariantHolds(runLength, n)) {
      if (runLength[n - 1] < runLength[n + 1]) n--
      mergeAt(s, n)
    } else if (runLength[n] <= runLength[n + 1]) mergeAt(s, n)
    else break
  }
}

/** Merge every pending run into one. */
const mergeForceCollapse = <T>(s: SortState<T>): void => {
  const runLength = s.runLength
  while (runLength.length > 1) {
    let n = runLength.length - 2
    if (n > 0 && runLength[n - 1] < runLength[n + 1]) n--
    mergeAt(s, n)
  }
}

/** Sort `list` in place, stably, by `order` (see the module comment for why this and not the host's sort). */
export const timSort = <T>(list: T[], order: Order<T>): void => {
  const n = list.length
  if (n < 2) return
  const s: SortState<T> = { list, order, minGallop: MIN_GALLOP, runBase: [], runLength: [] }
  const minRun = minRunLength(n)
  let low = 0
  let remaining = n
  while (remaining !== 0) {
    let run = countAndMakeRun(s, low, low + remaining)
    if (run < minRun) {
      const forced = Math.min(minRun, remaining)
      binaryInsertionSort(s, low, low + run, low + forced)
      run = forced
    }
    s.runBase.push(low)
    s.runLength.push(run)
    mergeCollapse(s)
    low += run
    remaining -= run
  }
  mergeForceCollapse(s)
}
