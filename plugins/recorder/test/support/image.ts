/** Pixel access on rendered RGB images for tests. */
import type { RgbImage } from "../../src/render/FrameRenderer.js"

/** The color at (x, y) as 0xRRGGBB. */
export function pixel(image: RgbImage, x: number, y: number): number {
  const offset = (y * image.width + x) * 3
  return (image.data[offset] << 16) | (image.data[offset + 1] << 8) | image.data[offset + 2]
}

/** Every color in the rectangle, row by row. */
export function region(image: RgbImage, left: number, top: number, width: number, height: number): number[] {
  const colors: number[] = []
  for (let y = top; y < top + height; y++) for (let x = left; x < left + width; x++) colors.push(pixel(image, x, y))
  return colors
}

/** How far (0–1 per pixel, summed) the pixels of a rectangle are from `background` towards `foreground`. */
export function ink(
  image: RgbImage,
  left: number,
  top: number,
  width: number,
  height: number,
  background: number,
  foreground: number,
): number {
  const channel = (color: number, shift: number) => (color >> shift) & 0xff
  let total = 0
  for (const color of region(image, left, top, width, height)) {
    let best = 0
    for (const shift of [16, 8, 0]) {
      const span = channel(foreground, shift) - channel(background, shift)
      if (span !== 0) best = Math.max(best, (channel(color, shift) - channel(background, shift)) / span)
    }
    total += best
  }
  return total
}
