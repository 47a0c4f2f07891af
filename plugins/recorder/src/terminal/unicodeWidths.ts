/**
 * Unicode 11 character widths for @xterm/headless terminals. xterm's default (Unicode 6) table makes emoji one
 * cell wide, while terminal programs such as OpenCode lay them out as two (as wcwidth does since Unicode 9), so
 * a line with emoji would be read with gaps and the text after it shifted. Every terminal Drive and the recorder
 * create uses this, so live screens and replayed recordings agree with the program.
 */
import { Unicode11Addon } from "@xterm/addon-unicode11"
import type { Terminal } from "@xterm/headless"

/** Switch `terminal` to Unicode 11 widths (the terminal must allow the proposed API). */
export const useUnicode11 = (terminal: Terminal): void => {
  terminal.loadAddon(new Unicode11Addon() as unknown as Parameters<Terminal["loadAddon"]>[0])
  terminal.unicode.activeVersion = "11"
}
