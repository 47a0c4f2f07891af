/** A labeled task: the query a model would write, and the tool paths that do the task. */
export interface Labeled {
  readonly query: string
  readonly expect: ReadonlyArray<string>
}
export declare const github: ReadonlyArray<Labeled>
export declare const opencode: ReadonlyArray<Labeled>
export declare const githubLater: ReadonlyArray<Labeled>
export declare const opencodeLater: ReadonlyArray<Labeled>
