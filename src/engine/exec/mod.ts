/**
 * Exec: commands typed into a pane's own shell and followed to their end marker
 * (`Executor.execute`), and long-running processes started, awaited until ready and stopped
 * with proof (`ProcessManager`). One command at a time per pane.
 */
export { Executor } from "./executor.ts";
export type { ExecOptions, ExecResult } from "./exec_result.ts";
export { ProcessManager, type Signal, SIGNALS, type StartResult, type StopResult } from "./processes.ts";
export { type Job, JobTable } from "./jobs.ts";
export { type Asker, type AskerKind, describeAsker } from "./question.ts";
export { untilShellDrawn } from "./prompt.ts";
