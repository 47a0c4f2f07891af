/**
 * RGB to planar YUV 4:2:0 (I420) conversion with BT.709 coefficients in limited ("TV") range, the pixel format of
 * H.264 and VP9 video: converting here, only for the rows that changed, spares ffmpeg a full-frame conversion per
 * frame.
 */

const KR = 0.2126
const KB = 0.0722
const KG = 1 - KR - KB
/** Fixed-point (16 fractional bits) coefficients, luma scaled to 16–235 and chroma to 16–240. */
const FIX = 1 << 16
const Y_R = Math.round(((KR * 219) / 255) * FIX)
const Y_G = Math.round(((KG * 219) / 255) * FIX)
const Y_B = Math.round(((KB * 219) / 255) * FIX)
const U_R = Math.round(((-KR / (2 * (1 - KB))) * 224 * FIX) / 255)
const U_G = Math.round(((-KG / (2 * (1 - KB))) * 224 * FIX) / 255)
const U_B = Math.round(((0.5 * 224) / 255) * FIX)
const V_R = Math.round(((0.5 * 224) / 255) * FIX)
const V_G = Math.round(((-KG / (2 * (1 - KR))) * 224 * FIX) / 255)
const V_B = Math.round(((-KB / (2 * (1 - KR))) * 224 * FIX) / 255)
const HALF = FIX >> 1

/** The byte size of an I420 image (even width and height). */
export function i420Size(width: number, height: number): number {
  return width * height + 2 * (width / 2) * (height / 2)
}

/**
 * Converts an RGB band of `bandHeight` rows (even) into rows `top..top+bandHeight` of an I420 image of
 * `width × height` pixels. Chroma is the average of each 2×2 block.
 */
export function rgbBandToI420(
  rgb: Uint8Array,
  width: number,
  bandHeight: number,
  target: Uint8Array,
  height: number,
  top: number,
): void {
  const chromaWidth = width / 2
  const uPlane = width * height
  const vPlane = uPlane + chromaWidth * (height / 2)
  const stride = width * 3
  for (let y = 0; y < bandHeight; y += 2) {
    const row0 = y * stride
    const row1 = row0 + stride
    const luma0 = (top + y) * width
    const luma1 = luma0 + width
    const chroma = ((top + y) / 2) * chromaWidth
    for (let x = 0; x < width; x += 2) {
      const a = row0 + x * 3
      const b = row1 + x * 3
      const r00 = rgb[a],
        g00 = rgb[a + 1],
        b00 = rgb[a + 2]
      const r01 = rgb[a + 3],
        g01 = rgb[a + 4],
        b01 = rgb[a + 5]
      const r10 = rgb[b],
        g10 = rgb[b + 1],
        b10 = rgb[b + 2]
      const r11 = rgb[b + 3],
        g11 = rgb[b + 4],
        b11 = rgb[b + 5]
      target[luma0 + x] = ((Y_R * r00 + Y_G * g00 + Y_B * b00 + HALF) >> 16) + 16
      target[luma0 + x + 1] = ((Y_R * r01 + Y_G * g01 + Y_B * b01 + HALF) >> 16) + 16
      target[luma1 + x] = ((Y_R * r10 + Y_G * g10 + Y_B * b10 + HALF) >> 16) + 16
      target[luma1 + x + 1] = ((Y_R * r11 + Y_G * g11 + Y_B * b11 + HALF) >> 16) + 16
      const r = r00 + r01 + r10 + r11
      const g = g00 + g01 + g10 + g11
      const bl = b00 + b01 + b10 + b11
      const c = chroma + x / 2
      target[uPlane + c] = ((U_R * r + U_G * g + U_B * bl + 2 * FIX) >> 18) + 128
      target[vPlane + c] = ((V_R * r + V_G * g + V_B * bl + 2 * FIX) >> 18) + 128
    }
  }
}
