/**
 * The standard implementation of core's `Recorder` service: PNG screenshots, asciicast files and ffmpeg video
 * exports, as an Effect layer.
 */
import { Recorder } from "@codemode/core"
import { Effect, Layer } from "effect"
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, isAbsolute } from "node:path"
import { castFromTimeline } from "./cast/asciicast.js"
import { renderPng } from "./screenshot.js"
import { exportVideoFile } from "./video/exportVideo.js"
import { probeFfmpeg, resolveFfmpeg } from "./video/ffmpeg.js"
import { ENCODER_OF } from "./video/videoFormats.js"

/** Options of the recorder layer. */
export interface RecorderOptions {
  /** The ffmpeg binary for videos; without it: `FFMPEG_PATH`, then `ffmpeg-static`, then `ffmpeg` on PATH. */
  readonly ffmpegPath?: string
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause)
}

function requireAbsolute(file: string, what: string): Effect.Effect<void, Recorder.RecorderError> {
  return isAbsolute(file)
    ? Effect.void
    : Effect.fail(new Recorder.RecorderError({ message: `the ${what} path must be absolute, got '${file}'` }))
}

function writeOut(file: string, contents: string | Buffer, what: string): Promise<void> {
  return mkdir(dirname(file), { recursive: true })
    .then(() => writeFile(file, contents))
    .catch((cause) => Promise.reject(new Error(`cannot write the ${what} ${file}: ${messageOf(cause)}`, { cause })))
}

/**
 * An effect running a cancellable promise: interruption aborts it and then waits until it has settled, so that its
 * cleanup (stopping ffmpeg, removing the incomplete file) is done when the interruption completes.
 */
function cancellable<A>(
  run: (signal: AbortSignal) => Promise<A>,
  toError: (cause: unknown) => Recorder.RecorderError,
): Effect.Effect<A, Recorder.RecorderError> {
  return Effect.callback<A, Recorder.RecorderError>((resume) => {
    const controller = new AbortController()
    const settled = run(controller.signal).then(
      (value) => resume(Effect.succeed(value)),
      (cause) => resume(Effect.fail(toError(cause))),
    )
    return Effect.promise(() => {
      controller.abort()
      return settled
    })
  })
}

/** Builds the recorder service with the given options. */
export function makeRecorder(options: RecorderOptions = {}): Recorder.RecorderShape {
  const ffmpegLookup = options.ffmpegPath === undefined ? {} : { ffmpegPath: options.ffmpegPath }
  return {
    screenshot: (frame, file) =>
      requireAbsolute(file, "screenshot").pipe(
        Effect.andThen(
          Effect.tryPromise({
            try: async () => writeOut(file, renderPng(frame), "screenshot"),
            catch: (cause) => new Recorder.RecorderError({ message: `screenshot failed: ${messageOf(cause)}`, cause }),
          }),
        ),
      ),
    saveCast: (timeline, file, title) =>
      requireAbsolute(file, "cast").pipe(
        Effect.andThen(
          Effect.tryPromise({
            try: async () => writeOut(file, castFromTimeline(timeline, title), "cast"),
            catch: (cause) =>
              new Recorder.RecorderError({ message: `saving the cast failed: ${messageOf(cause)}`, cause }),
          }),
        ),
      ),
    exportVideo: (timeline, file, exportOptions) =>
      requireAbsolute(file, "video").pipe(
        Effect.andThen(
          cancellable(
            (signal) => exportVideoFile(timeline, file, { ...exportOptions, ...ffmpegLookup, signal }),
            (cause) => new Recorder.RecorderError({ message: `video export failed: ${messageOf(cause)}`, cause }),
          ),
        ),
      ),
    checkVideo: Effect.tryPromise({
      try: async () => {
        const ffmpeg = await probeFfmpeg(resolveFfmpeg(ffmpegLookup).path)
        if (!ffmpeg.encoders.has(ENCODER_OF.mp4)) {
          throw new Error(
            `the ffmpeg at ${ffmpeg.path} (version ${ffmpeg.version}) lacks the ${ENCODER_OF.mp4} encoder that MP4 ` +
              `videos need; install a full ffmpeg build or set FFMPEG_PATH to one`,
          )
        }
      },
      catch: (cause) =>
        new Recorder.RecorderError({ message: `video recording is unavailable: ${messageOf(cause)}`, cause }),
    }),
  }
}

/** The recorder layer with explicit options (an ffmpeg binary). */
export function layerWith(options: RecorderOptions): Layer.Layer<Recorder.Recorder> {
  return Layer.succeed(Recorder.Recorder, makeRecorder(options))
}

/** The recorder layer with the default ffmpeg resolution (`FFMPEG_PATH`, `ffmpeg-static`, PATH). */
export const layer: Layer.Layer<Recorder.Recorder> = layerWith({})
