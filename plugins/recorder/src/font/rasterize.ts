/**
 * Anti-aliased scanline rasterisation of closed outlines by signed-area accumulation: every edge adds the area it
 * covers to an accumulation buffer, and a running sum along each row gives the exact coverage of each pixel
 * (non-zero winding, clamped to 1).
 */
import type { Contour } from "./TrueTypeFont.js"

/** Maps font units to pixels: `px = x * scale + originX`, `py = originY - y * scale` (pixel rows grow downwards). */
export interface OutlineTransform {
  readonly scale: number
  readonly originX: number
  readonly originY: number
}

/** Flattening tolerance of quadratic curves, in pixels. */
const CURVE_TOLERANCE = 0.1

/** Accumulates the outline edges of one glyph and resolves them into a coverage mask. */
export class Rasterizer {
  private readonly stride: number
  private readonly accumulation: Float32Array
  private currentX = 0
  private currentY = 0

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    // Two spare columns take the area of edges clamped to the right border.
    this.stride = width + 2
    this.accumulation = new Float32Array(this.stride * height)
  }

  /** Adds the contours of an outline, transformed to pixel space. */
  addContours(contours: ReadonlyArray<Contour>, transform: OutlineTransform): void {
    const { scale, originX, originY } = transform
    for (const contour of contours) {
      const n = contour.length
      if (n < 2) continue
      const xs = contour.map((point) => point.x * scale + originX)
      const ys = contour.map((point) => originY - point.y * scale)
      const on = contour.map((point) => point.onCurve)
      let startX: number
      let startY: number
      let first: number
      let count: number
      if (on[0]) {
        startX = xs[0]
        startY = ys[0]
        first = 1
        count = n - 1
      } else if (on[n - 1]) {
        startX = xs[n - 1]
        startY = ys[n - 1]
        first = 0
        count = n - 1
      } else {
        startX = (xs[n - 1] + xs[0]) / 2
        startY = (ys[n - 1] + ys[0]) / 2
        first = 0
        count = n
      }
      this.currentX = startX
      this.currentY = startY
      let control = -1
      for (let k = 0; k < count; k++) {
        const i = (first + k) % n
        if (on[i]) {
          if (control >= 0) this.quadTo(xs[control], ys[control], xs[i], ys[i])
          else this.lineTo(xs[i], ys[i])
          control = -1
        } else {
          if (control >= 0) this.quadTo(xs[control], ys[control], (xs[control] + xs[i]) / 2, (ys[control] + ys[i]) / 2)
          control = i
        }
      }
      if (control >= 0) this.quadTo(xs[control], ys[control], startX, startY)
      else this.lineTo(startX, startY)
    }
  }

  /** Resolves the accumulated edges into coverage bytes (0 = empty, 255 = fully covered), row-major. */
  coverage(): Uint8Array {
    const { width, height, stride, accumulation } = this
    const alpha = new Uint8Array(width * height)
    for (let y = 0; y < height; y++) {
      let sum = 0
      const row = y * stride
      for (let x = 0; x < width; x++) {
        sum += accumulation[row + x]
        const value = Math.abs(sum)
        alpha[y * width + x] = value >= 1 ? 255 : Math.round(value * 255)
      }
    }
    return alpha
  }

  private lineTo(x: number, y: number): void {
    this.addClippedLine(this.currentX, this.currentY, x, y)
    this.currentX = x
    this.currentY = y
  }

  private quadTo(controlX: number, controlY: number, x: number, y: number): void {
    const x0 = this.currentX
    const y0 = this.currentY
    const deviation = Math.hypot(x0 - 2 * controlX + x, y0 - 2 * controlY + y)
    const segments = Math.max(1, Math.ceil(Math.sqrt(deviation / (8 * CURVE_TOLERANCE))))
    for (let i = 1; i <= segments; i++) {
      const t = i / segments
      const u = 1 - t
      this.lineTo(u * u * x0 + 2 * u * t * controlX + t * t * x, u * u * y0 + 2 * u * t * controlY + t * t * y)
    }
  }

  /** Splits a line at the left and right borders so that clamping x keeps the coverage inside exact. */
  private addClippedLine(x0: number, y0: number, x1: number, y1: number): void {
    const width = this.width
    const cuts: number[] = []
    for (const border of [0, width]) {
      if ((x0 - border) * (x1 - border) < 0) cuts.push((border - x0) / (x1 - x0))
    }
    cuts.sort((a, b) => a - b)
    let previousX = x0
    let previousY = y0
    for (const t of [...cuts, 1]) {
      const x = t === 1 ? x1 : x0 + (x1 - x0) * t
      const y = t === 1 ? y1 : y0 + (y1 - y0) * t
      this.addLine(clamp(previousX, 0, width), previousY, clamp(x, 0, width), y)
      previousX = x
      previousY = y
    }
  }

  /** Adds the signed area of one line (x already within [0, width]) to the accumulation buffer. */
  private addLine(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return
    let direction = 1
    if (y0 > y1) {
      direction = -1
      ;[x0, x1] = [x1, x0]
      ;[y0, y1] = [y1, y0]
    }
    const acc = this.accumulation
    const stride = this.stride
    const dxdy = (x1 - x0) / (y1 - y0)
    let x = x0
    let yStart = Math.floor(y0)
    if (y0 < 0) {
      x -= y0 * dxdy
      yStart = 0
    }
    const yEnd = Math.min(this.height, Math.ceil(y1))
    for (let y = yStart; y < yEnd; y++) {
      const row = y * stride
      const dy = Math.min(y + 1, y1) - Math.max(y, y0)
      const xNext = x + dxdy * dy
      const d = dy * direction
      const left = x < xNext ? x : xNext
      const right = x < xNext ? xNext : x
      const leftIndex = Math.floor(left)
      const rightIndex = Math.ceil(right)
      if (rightIndex <= leftIndex + 1) {
        const middle = 0.5 * (x + xNext) - leftIndex
        acc[row + leftIndex] += d - d * middle
        acc[row + leftIndex + 1] += d * middle
      } else {
        const s = 1 / (right - left)
        const leftFraction = left - leftIndex
        const a0 = 0.5 * s * (1 - leftFraction) * (1 - leftFraction)
        const rightFraction = right - rightIndex + 1
        const am = 0.5 * s * rightFraction * rightFraction
        acc[row + leftIndex] += d * a0
        if (rightIndex === leftIndex + 2) {
          acc[row + leftIndex + 1] += d * (1 - a0 - am)
        } else {
          const a1 = s * (1.5 - leftFraction)
          acc[row + leftIndex + 1] += d * (a1 - a0)
          for (let xi = leftIndex + 2; xi < rightIndex - 1; xi++) acc[row + xi] += d * s
          const a2 = a1 + (rightIndex - leftIndex - 3) * s
          acc[row + rightIndex - 1] += d * (1 - a2 - am)
        }
        acc[row + rightIndex] += d * am
      }
      x = xNext
    }
  }
}

function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value
}
