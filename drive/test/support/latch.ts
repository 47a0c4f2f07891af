/** Waiting in tests without fixed sleeps: poll a condition until it holds, failing with a description after a deadline. */

/** Resolve when `condition()` holds (checked every `intervalMs`); reject with `what` after `timeoutMs`. */
export const eventually = async (
  what: string,
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 30_000, intervalMs = 50 }: { readonly timeoutMs?: number; readonly intervalMs?: number } = {},
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
