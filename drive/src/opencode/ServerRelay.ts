/**
 * A loopback TCP relay in front of the OpenCode server. It listens at once, so TUIs can start while the server is
 * still booting (both take seconds; booting them in parallel roughly halves the time to a ready prompt); their
 * connections wait, paused, until the server's port is known and are then piped to it byte for byte (HTTP, SSE
 * and WebSocket traffic alike). Closing the scope closes the relay and every connection through it.
 */
import * as Net from "node:net"
import { Effect, type Scope } from "effect"

/** A running relay. */
export interface ServerRelay {
  /** `http://127.0.0.1:<relay port>` */
  readonly url: string
  /** Start forwarding waiting and future connections to `port`. */
  readonly forwardTo: (port: number) => void
}

/** Start a relay on a free loopback port; it closes with the scope. */
export const make: Effect.Effect<ServerRelay, never, Scope.Scope> = Effect.gen(function* () {
  const sockets = new Set<Net.Socket>()
  const waiting: Array<() => void> = []
  let target: number | undefined

  const track = (socket: Net.Socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  }

  const relay = Net.createServer({ pauseOnConnect: true }, (client) => {
    track(client)
    const forward = () => {
      if (client.destroyed) return
      const upstream = Net.connect(target!, "127.0.0.1")
      track(upstream)
      upstream.on("error", () => client.destroy())
      client.on("error", () => upstream.destroy())
      upstream.on("close", () => client.destroy())
      client.on("close", () => upstream.destroy())
      client.pipe(upstream)
      upstream.pipe(client)
      client.resume()
    }
    if (target === undefined) waiting.push(forward)
    else forward()
  })

  const port = yield* Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      relay.listen(0, "127.0.0.1", () => resume(Effect.succeed((relay.address() as Net.AddressInfo).port)))
    }),
    () =>
      Effect.callback<void>((resume) => {
        for (const socket of sockets) socket.destroy()
        relay.close(() => resume(Effect.void))
      }),
  )

  return {
    url: `http://127.0.0.1:${port}`,
    forwardTo: (serverPort) => {
      target = serverPort
      for (const forward of waiting.splice(0)) forward()
    },
  }
})
