// Benchmarks of @codemode/recorder on its built dist (run `npx tsup` first):
//   - screenshot render time of a dense 120×40 frame (p50; target ≤ 50 ms),
//   - video export speed of a synthetic 20 s 120×40 recording with steady output, in seconds of video per wall
//     second (target ≥ 10×).
// Usage: node bench/run.mjs [--all]   (--all adds GIF and WebM exports and a recording that changes every frame)
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { exportVideoFile, renderPng, renderRgb } from "../dist/index.js"

const all = process.argv.includes("--all")
const COLS = 120
const ROWS = 40
const SECONDS = 20

/**
 * CPU seconds used so far by this process and its finished children (ffmpeg), on Linux; wall-clock speed depends on
 * what else the machine runs, CPU time much less.
 */
function cpuSeconds() {
  if (!existsSync("/proc/self/stat")) return undefined
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")
  // Fields after the command: state is index 0, so utime/stime/cutime/cstime are 11..14.
  const ticks = fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0)
  return ticks / 100
}

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** A dense screen: every cell holds a glyph, with 16/256/true colors, bold, italic, underline and box drawing. */
function denseFrame() {
  const text =
    "The quick brown fox jumps over the lazy dog 0123456789 {}[]()<>=+-*/ ─│┌┐└┘├┤ ABCDEFGHIJKLMNOPQRSTUVWXYZ"
  const color = (mode, value) =>
    mode === "rgb" ? { mode, rgb: value } : mode === "palette" ? { mode, index: value } : { mode }
  const cells = Array.from({ length: ROWS }, (_, y) =>
    Array.from({ length: COLS }, (_, x) => ({
      glyph: text[(x + y * 7) % text.length],
      width: 1,
      fg:
        x % 3 === 0
          ? color("palette", (x + y) % 256)
          : x % 3 === 1
            ? color("rgb", (x * 2000 + y * 70) & 0xffffff)
            : color("default"),
      bg: y % 4 === 0 ? color("rgb", 0x1e1e2e) : color("default"),
      bold: y % 3 === 0,
      italic: y % 5 === 0,
      dim: false,
      underline: y % 7 === 0,
      strikethrough: false,
      inverse: false,
      invisible: false,
    })),
  )
  return { cols: COLS, rows: ROWS, cells, cursor: { x: 10, y: 10, visible: true } }
}

/**
 * A recording with steady output: every `interval` ms a colored log line scrolls the screen and a status bar at
 * the bottom is redrawn, for `seconds` seconds.
 */
function steadyTimeline(interval, seconds = SECONDS) {
  const words =
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore".split(" ")
  const events = [{ t: 0, type: "output", data: "\x1b[2J\x1b[H\x1b[1;32m$\x1b[0m opencode run --demo\r\n" }]
  for (let t = interval, n = 0; t <= seconds * 1000; t += interval, n++) {
    let line = `\x1b[38;5;${16 + (n % 216)}m[${String(n).padStart(4, "0")}]\x1b[0m `
    for (let k = 0; k < 12; k++) line += (k % 4 === 0 ? "\x1b[1m" : "") + words[(n + k) % words.length] + "\x1b[0m "
    const bar = `${"█".repeat(n % 30)}${"░".repeat(30 - (n % 30))}`
    const status = `\x1b7\x1b[${ROWS};1H\x1b[48;2;40;40;80m\x1b[38;2;220;220;255m ${bar} ${n} lines \x1b[K\x1b[0m\x1b8`
    events.push({ t, type: "output", data: line + "\r\n" + status })
  }
  return { cols: COLS, rows: ROWS, startedAt: Date.now(), events }
}

async function benchScreenshot() {
  const frame = denseFrame()
  const cold = performance.now()
  renderPng(frame)
  const first = performance.now() - cold
  const rgb = []
  const png = []
  const pngCpu = []
  for (let i = 0; i < 40; i++) {
    let start = performance.now()
    renderRgb(frame)
    rgb.push(performance.now() - start)
    const cpuStart = process.cpuUsage()
    start = performance.now()
    renderPng(frame)
    png.push(performance.now() - start)
    const cpu = process.cpuUsage(cpuStart)
    pngCpu.push((cpu.user + cpu.system) / 1000)
  }
  return {
    firstPngMs: first,
    rgbP50Ms: percentile(rgb, 50),
    pngP50Ms: percentile(png, 50),
    pngP95Ms: percentile(png, 95),
    pngCpuP50Ms: percentile(pngCpu, 50),
    pngBytes: renderPng(frame).length,
  }
}

async function benchExport(directory, name, timeline, extension, runs) {
  const speeds = []
  const cpu = []
  let bytes = 0
  for (let run = 0; run < runs; run++) {
    const file = join(directory, `${name}-${run}.${extension}`)
    const cpuStart = cpuSeconds()
    const start = performance.now()
    await exportVideoFile(timeline, file)
    const wall = (performance.now() - start) / 1000
    const cpuEnd = cpuSeconds()
    speeds.push(SECONDS / wall)
    if (cpuStart !== undefined && cpuEnd !== undefined) cpu.push(cpuEnd - cpuStart)
    bytes = statSync(file).size
  }
  return {
    name: `${name}.${extension}`,
    speedX: percentile(speeds, 50),
    runs: speeds.map((s) => Number(s.toFixed(1))),
    cpuSeconds: cpu.length > 0 ? percentile(cpu, 50) : undefined,
    bytes,
  }
}

const directory = mkdtempSync(join(tmpdir(), "recorder-bench-"))
try {
  const shot = await benchScreenshot()
  console.log(
    `screenshot ${COLS}×${ROWS}: PNG p50 ${shot.pngP50Ms.toFixed(1)} ms (target ≤ 50), p95 ${shot.pngP95Ms.toFixed(1)} ms, ` +
      `CPU p50 ${shot.pngCpuP50Ms.toFixed(1)} ms, ` +
      `pixels only p50 ${shot.rgbP50Ms.toFixed(1)} ms, first (cold glyph cache) ${shot.firstPngMs.toFixed(1)} ms, ${shot.pngBytes} bytes`,
  )
  const exports = [await benchExport(directory, "steady-100ms", steadyTimeline(100), "mp4", 3)]
  if (all) {
    exports.push(await benchExport(directory, "every-frame-33ms", steadyTimeline(1000 / 30), "mp4", 1))
    exports.push(await benchExport(directory, "steady-100ms", steadyTimeline(100), "webm", 1))
    exports.push(await benchExport(directory, "steady-100ms", steadyTimeline(100), "gif", 1))
  }
  for (const result of exports) {
    const target = result.name === "steady-100ms.mp4" ? " (target ≥ 10×)" : ""
    console.log(
      `export ${SECONDS} s ${COLS}×${ROWS} ${result.name}: ${result.speedX.toFixed(1)}× real time${target}, ` +
        `runs ${result.runs.join(", ")}, ${(result.bytes / 1e6).toFixed(2)} MB` +
        (result.cpuSeconds === undefined ? "" : `, ${result.cpuSeconds.toFixed(2)} CPU s (recorder + ffmpeg)`),
    )
  }
  console.log(
    `load average while measuring: ${(await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${(await import("node:os")).cpus().length} cores`,
  )
  console.log(JSON.stringify({ recorder: { screenshot: shot, exports } }))
} finally {
  rmSync(directory, { recursive: true, force: true })
}
