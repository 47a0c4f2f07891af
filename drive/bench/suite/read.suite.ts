import * as Path from "node:path"
import { Effect } from "effect"
import { Llm } from "opencode-drive"
import { expect, test } from "opencode-drive/vitest"

test("runs OpenCode's read tool from a queued tool call", ({ drive }) =>
  drive({ project: { files: { "notes.md": "tangerine\n" } } }, ({ ui, llm, paths }) =>
    Effect.gen(function* () {
      yield* llm.queue(
        Llm.toolCall({
          index: 0,
          id: "call_read",
          name: "read",
          input: { filePath: Path.join(paths.files, "notes.md") },
        }),
        Llm.finish("tool-calls"),
      )
      yield* llm.queue(Llm.text("The notes say tangerine."))
      yield* ui.submit("Read the notes")
      yield* ui.waitFor("The notes say tangerine.")
      const requests = yield* llm.waitForRequests(2)
      expect(JSON.stringify(requests[1].messages)).toContain("tangerine")
    }),
  ))
