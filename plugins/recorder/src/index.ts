/**
 * `@codemode/recorder`: screenshots (PNG), asciicast recordings and videos (MP4, GIF, WebM) of terminal UIs, and
 * the layer providing core's `Recorder` service.
 */
export { layer, layerWith, makeRecorder, type RecorderOptions } from "./layer.js"
export { renderPng, renderRgb, validateFrame } from "./screenshot.js"
export { castFromTimeline, validateTimeline } from "./cast/asciicast.js"
export { DEFAULT_FPS, exportVideoFile, frameCountOf, type VideoExportOptions } from "./video/exportVideo.js"
export {
  HOW_TO_GET_FFMPEG,
  probeFfmpeg,
  resolveFfmpeg,
  type FfmpegCapabilities,
  type FfmpegLookup,
  type FfmpegSource,
  type ResolvedFfmpeg,
} from "./video/ffmpeg.js"
export { videoFormatOf, type VideoFormat } from "./video/videoFormats.js"
export { encodePng } from "./png/encodePng.js"
export { CELL_HEIGHT, CELL_WIDTH, FrameRenderer, type RgbImage } from "./render/FrameRenderer.js"
export { defaultTheme, type Theme } from "./render/palette.js"
export { frameFromTerminal } from "./terminal/frameFromTerminal.js"
export { firstContentAt, type TrimOptions, trimTimeline } from "./terminal/trimTimeline.js"
export { useUnicode11 } from "./terminal/unicodeWidths.js"
