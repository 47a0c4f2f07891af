/**
 * Box-drawing (U+2500–257F) and block elements (U+2580–259F) drawn geometrically on the pixel grid, so that lines
 * meet exactly at cell borders and blocks tile without seams, whatever the font would have drawn.
 */

/** Whether `codePoint` is drawn by {@link drawBoxGlyph} instead of the font. */
export function isBoxGlyph(codePoint: number): boolean {
  return codePoint >= 0x2500 && codePoint <= 0x259f
}

/**
 * Draws a box-drawing or block-element character as a coverage mask of `width × height` pixels (one byte per pixel,
 * 255 = full). Returns `undefined` for other characters.
 */
export function drawBoxGlyph(codePoint: number, width: number, height: number): Uint8Array | undefined {
  if (!isBoxGlyph(codePoint)) return undefined
  const mask = new Mask(width, height)
  if (codePoint >= 0x2580) drawBlock(mask, codePoint)
  else drawLines(mask, codePoint)
  return mask.alpha
}

/** A coverage mask with rectangle filling that accounts for fractional edges. */
class Mask {
  readonly alpha: Uint8Array
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.alpha = new Uint8Array(width * height)
  }

  /** Covers the rectangle [x0, x1) × [y0, y1) (fractional edges give partial coverage) with `level` (0–1). */
  fill(x0: number, y0: number, x1: number, y1: number, level = 1): void {
    const left = Math.max(0, x0)
    const right = Math.min(this.width, x1)
    const top = Math.max(0, y0)
    const bottom = Math.min(this.height, y1)
    if (right <= left || bottom <= top) return
    for (let y = Math.floor(top); y < Math.ceil(bottom); y++) {
      const coverY = Math.min(bottom, y + 1) - Math.max(top, y)
      for (let x = Math.floor(left); x < Math.ceil(right); x++) {
        const coverX = Math.min(right, x + 1) - Math.max(left, x)
        const index = y * this.width + x
        this.alpha[index] = Math.min(255, this.alpha[index] + Math.round(coverX * coverY * level * 255))
      }
    }
  }

  /** Covers pixels by `coverage(centreX, centreY)` (0–1), keeping the larger of old and new coverage. */
  paint(coverage: (x: number, y: number) => number): void {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const value = Math.round(Math.max(0, Math.min(1, coverage(x + 0.5, y + 0.5))) * 255)
        const index = y * this.width + x
        if (value > this.alpha[index]) this.alpha[index] = value
      }
    }
  }
}

/** Arm weights, one digit each for up, right, down, left: 0 none, 1 light, 2 heavy, 3 double. */
const ARMS: Record<number, string> = {
  0x2500: "0101",
  0x2501: "0202",
  0x2502: "1010",
  0x2503: "2020",
  0x250c: "0110",
  0x250d: "0210",
  0x250e: "0120",
  0x250f: "0220",
  0x2510: "0011",
  0x2511: "0012",
  0x2512: "0021",
  0x2513: "0022",
  0x2514: "1100",
  0x2515: "1200",
  0x2516: "2100",
  0x2517: "2200",
  0x2518: "1001",
  0x2519: "1002",
  0x251a: "2001",
  0x251b: "2002",
  0x251c: "1110",
  0x251d: "1210",
  0x251e: "2110",
  0x251f: "1120",
  0x2520: "2120",
  0x2521: "2210",
  0x2522: "1220",
  0x2523: "2220",
  0x2524: "1011",
  0x2525: "1012",
  0x2526: "2011",
  0x2527: "1021",
  0x2528: "2021",
  0x2529: "2012",
  0x252a: "1022",
  0x252b: "2022",
  0x252c: "0111",
  0x252d: "0112",
  0x252e: "0211",
  0x252f: "0212",
  0x2530: "0121",
  0x2531: "0122",
  0x2532: "0221",
  0x2533: "0222",
  0x2534: "1101",
  0x2535: "1102",
  0x2536: "1201",
  0x2537: "1202",
  0x2538: "2101",
  0x2539: "2102",
  0x253a: "2201",
  0x253b: "2202",
  0x253c: "1111",
  0x253d: "1112",
  0x253e: "1211",
  0x253f: "1212",
  0x2540: "2111",
  0x2541: "1121",
  0x2542: "2121",
  0x2543: "2112",
  0x2544: "2211",
  0x2545: "1122",
  0x2546: "1221",
  0x2547: "2212",
  0x2548: "1222",
  0x2549: "2122",
  0x254a: "2221",
  0x254b: "2222",
  0x2550: "0303",
  0x2551: "3030",
  0x2552: "0310",
  0x2553: "0130",
  0x2554: "0330",
  0x2555: "0013",
  0x2556: "0031",
  0x2557: "0033",
  0x2558: "1300",
  0x2559: "3100",
  0x255a: "3300",
  0x255b: "1003",
  0x255c: "3001",
  0x255d: "3003",
  0x255e: "1310",
  0x255f: "3130",
  0x2560: "3330",
  0x2561: "1013",
  0x2562: "3031",
  0x2563: "3033",
  0x2564: "0313",
  0x2565: "0131",
  0x2566: "0333",
  0x2567: "1303",
  0x2568: "3101",
  0x2569: "3303",
  0x256a: "1313",
  0x256b: "3131",
  0x256c: "3333",
  0x2574: "0001",
  0x2575: "1000",
  0x2576: "0100",
  0x2577: "0010",
  0x2578: "0002",
  0x2579: "2000",
  0x257a: "0200",
  0x257b: "0020",
  0x257c: "0201",
  0x257d: "1020",
  0x257e: "0102",
  0x257f: "2010",
}

/** Dashed lines: code point → [vertical, heavy, dash count]. */
const DASHES: Record<number, readonly [boolean, boolean, number]> = {
  0x2504: [false, false, 3],
  0x2505: [false, true, 3],
  0x2506: [true, false, 3],
  0x2507: [true, true, 3],
  0x2508: [false, false, 4],
  0x2509: [false, true, 4],
  0x250a: [true, false, 4],
  0x250b: [true, true, 4],
  0x254c: [false, false, 2],
  0x254d: [false, true, 2],
  0x254e: [true, false, 2],
  0x254f: [true, true, 2],
}

const LIGHT = 1
const HEAVY = 2
const DOUBLE = 3

/** Half the extra thickness of a stroke around its centre line: light 1 px, heavy and double 3 px in all. */
function halfWidth(weight: number): number {
  return weight === LIGHT || weight === 0 ? 0 : 1
}

function drawLines(mask: Mask, codePoint: number): void {
  const { width, height } = mask
  const cx = Math.floor((width - 1) / 2)
  const cy = Math.floor((height - 1) / 2)
  const dash = DASHES[codePoint]
  if (dash !== undefined) return drawDashes(mask, cx, cy, dash)
  if (codePoint >= 0x256d && codePoint <= 0x2570) return drawArc(mask, cx, cy, codePoint)
  if (codePoint >= 0x2571 && codePoint <= 0x2573) return drawDiagonals(mask, codePoint)
  const arms = ARMS[codePoint]
  if (arms === undefined) return
  const [up, right, down, left] = [...arms].map(Number)
  const horizontal = left > 0 || right > 0
  const vertical = up > 0 || down > 0
  // The rows spanned by the horizontal arms and the columns spanned by the vertical arms, where arms join.
  const hTop = cy - Math.max(halfWidth(left), halfWidth(right))
  const hBottom = cy + Math.max(halfWidth(left), halfWidth(right))
  const vLeft = cx - Math.max(halfWidth(up), halfWidth(down))
  const vRight = cx + Math.max(halfWidth(up), halfWidth(down))
  const bothDouble = (a: number, b: number) => a === DOUBLE && b === DOUBLE

  // Where a double line on one side of its arm ends: at the perpendicular arm on that side (`near`) or beyond it.
  const doubleRowEnd = (near: number, far: number, fromAbove: boolean): number => {
    const sign = fromAbove ? 1 : -1
    if (near === DOUBLE) return cy - sign
    if (near > 0) return cy + sign * halfWidth(near)
    if (far === DOUBLE) return cy + sign
    if (far > 0) return cy + sign * halfWidth(far)
    return cy
  }
  const doubleColumnEnd = (near: number, far: number, fromLeft: boolean): number => {
    const sign = fromLeft ? 1 : -1
    if (near === DOUBLE) return cx - sign
    if (near > 0) return cx + sign * halfWidth(near)
    if (far === DOUBLE) return cx + sign
    if (far > 0) return cx + sign * halfWidth(far)
    return cx
  }

  if (up > 0) {
    if (up === DOUBLE) {
      mask.fill(cx - 1, 0, cx, doubleRowEnd(left, right, true) + 1)
      mask.fill(cx + 1, 0, cx + 2, doubleRowEnd(right, left, true) + 1)
    } else {
      let end = horizontal ? (bothDouble(left, right) ? cy - 1 : hBottom) : cy + halfWidth(up)
      if (down > 0) end = Math.max(end, cy)
      mask.fill(cx - halfWidth(up), 0, cx + halfWidth(up) + 1, end + 1)
    }
  }
  if (down > 0) {
    if (down === DOUBLE) {
      mask.fill(cx - 1, doubleRowEnd(left, right, false), cx, height)
      mask.fill(cx + 1, doubleRowEnd(right, left, false), cx + 2, height)
    } else {
      let start = horizontal ? (bothDouble(left, right) ? cy + 1 : hTop) : cy - halfWidth(down)
      if (up > 0) start = Math.min(start, cy)
      mask.fill(cx - halfWidth(down), start, cx + halfWidth(down) + 1, height)
    }
  }
  if (left > 0) {
    if (left === DOUBLE) {
      mask.fill(0, cy - 1, doubleColumnEnd(up, down, true) + 1, cy)
      mask.fill(0, cy + 1, doubleColumnEnd(down, up, true) + 1, cy + 2)
    } else {
      let end = vertical ? (bothDouble(up, down) ? cx - 1 : vRight) : cx + halfWidth(left)
      if (right > 0) end = Math.max(end, cx)
      mask.fill(0, cy - halfWidth(left), end + 1, cy + halfWidth(left) + 1)
    }
  }
  if (right > 0) {
    if (right === DOUBLE) {
      mask.fill(doubleColumnEnd(up, down, false), cy - 1, width, cy)
      mask.fill(doubleColumnEnd(down, up, false), cy + 1, width, cy + 2)
    } else {
      let start = vertical ? (bothDouble(up, down) ? cx + 1 : vLeft) : cx - halfWidth(right)
      if (left > 0) start = Math.min(start, cx)
      mask.fill(start, cy - halfWidth(right), width, cy + halfWidth(right) + 1)
    }
  }
}

function drawDashes(
  mask: Mask,
  cx: number,
  cy: number,
  [vertical, heavy, count]: readonly [boolean, boolean, number],
): void {
  const half = heavy ? halfWidth(HEAVY) : 0
  const length = vertical ? mask.height : mask.width
  const segment = length / count
  const gap = Math.max(1, Math.round(segment / 3))
  for (let i = 0; i < count; i++) {
    const start = Math.round(i * segment)
    const end = Math.round((i + 1) * segment) - gap
    if (vertical) mask.fill(cx - half, start, cx + half + 1, end)
    else mask.fill(start, cy - half, end, cy + half + 1)
  }
}

/** Rounded corners ╭ ╮ ╯ ╰: straight light strokes from the edges into a quarter circle. */
function drawArc(mask: Mask, cx: number, cy: number, codePoint: number): void {
  const { width, height } = mask
  // Direction of the two arms: ╭ down+right, ╮ down+left, ╯ up+left, ╰ up+right.
  const towardsX = codePoint === 0x256d || codePoint === 0x2570 ? 1 : -1
  const towardsY = codePoint === 0x256d || codePoint === 0x256e ? 1 : -1
  const lineX = cx + 0.5
  const lineY = cy + 0.5
  const radius = Math.min(lineX, width - lineX, lineY, height - lineY)
  const centreX = lineX + towardsX * radius
  const centreY = lineY + towardsY * radius
  mask.paint((x, y) => {
    const inQuadrant = (x - centreX) * towardsX <= 0 && (y - centreY) * towardsY <= 0
    if (!inQuadrant) return 0
    return 1 - Math.abs(Math.hypot(x - centreX, y - centreY) - radius)
  })
  if (towardsY > 0) mask.fill(cx, Math.ceil(centreY), cx + 1, height)
  else mask.fill(cx, 0, cx + 1, Math.floor(centreY))
  if (towardsX > 0) mask.fill(Math.ceil(centreX), cy, width, cy + 1)
  else mask.fill(0, cy, Math.floor(centreX), cy + 1)
}

/** Diagonals ╱ ╲ ╳ from corner to corner, anti-aliased, about one pixel wide. */
function drawDiagonals(mask: Mask, codePoint: number): void {
  const { width, height } = mask
  const length = Math.hypot(width, height)
  const rising = (x: number, y: number) => Math.abs(height * x + width * y - width * height) / length
  const falling = (x: number, y: number) => Math.abs(height * x - width * y) / length
  mask.paint((x, y) => {
    let distance = Infinity
    if (codePoint !== 0x2572) distance = Math.min(distance, rising(x, y))
    if (codePoint !== 0x2571) distance = Math.min(distance, falling(x, y))
    return 1 - distance
  })
}

/** Quadrant bits: upper left, upper right, lower left, lower right. */
const UL = 1
const UR = 2
const LL = 4
const LR = 8
const QUADRANTS: Record<number, number> = {
  0x2596: LL,
  0x2597: LR,
  0x2598: UL,
  0x2599: UL | LL | LR,
  0x259a: UL | LR,
  0x259b: UL | UR | LL,
  0x259c: UL | UR | LR,
  0x259d: UR,
  0x259e: UR | LL,
  0x259f: UR | LL | LR,
}

function drawBlock(mask: Mask, codePoint: number): void {
  const { width: w, height: h } = mask
  if (codePoint === 0x2580) return mask.fill(0, 0, w, h / 2)
  if (codePoint >= 0x2581 && codePoint <= 0x2588) return mask.fill(0, h - ((codePoint - 0x2580) * h) / 8, w, h)
  if (codePoint >= 0x2589 && codePoint <= 0x258f) return mask.fill(0, 0, ((0x2590 - codePoint) * w) / 8, h)
  if (codePoint === 0x2590) return mask.fill(w / 2, 0, w, h)
  if (codePoint >= 0x2591 && codePoint <= 0x2593) return mask.fill(0, 0, w, h, (codePoint - 0x2590) / 4)
  if (codePoint === 0x2594) return mask.fill(0, 0, w, h / 8)
  if (codePoint === 0x2595) return mask.fill((w * 7) / 8, 0, w, h)
  const quadrants = QUADRANTS[codePoint] ?? 0
  if (quadrants & UL) mask.fill(0, 0, w / 2, h / 2)
  if (quadrants & UR) mask.fill(w / 2, 0, w, h / 2)
  if (quadrants & LL) mask.fill(0, h / 2, w / 2, h)
  if (quadrants & LR) mask.fill(w / 2, h / 2, w, h)
}
