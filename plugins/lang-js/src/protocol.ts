/**
 * The sandbox contract types this package uses, re-exported from `@codemode/core/sandbox`. Types only: the worker imports
 * nothing from core at run time.
 */
import type * as Sandbox from "@codemode/core/sandbox"

export type DataValue = Sandbox.DataValue
export type Diagnostic = Sandbox.Diagnostic
export type Kind = Sandbox.Kind
export type Location = Sandbox.Location
export type RunRequest = Sandbox.RunRequest
export type RunOutcome = Sandbox.RunOutcome
export type SandboxHost = Sandbox.SandboxHost
export type HostCall = Sandbox.HostCall
export type HostOutcome = Sandbox.HostOutcome
export type ResultFunction = Sandbox.ResultFunction
export type HostFailure = Sandbox.HostFailure
export type ToolShape = Sandbox.ToolShape
export type GlobalShape = Sandbox.GlobalShape
export type ExtensionShape = Sandbox.ExtensionShape
