import type { Config } from "./config.ts";
import { AuditLog } from "./audit/audit.ts";
import type { TmuxServer } from "./tmux/server.ts";
import { Paster, Workspace } from "./engine/panes/mod.ts";
import { logDir, PaneOutput } from "./engine/output/mod.ts";
import { Executor, ProcessManager } from "./engine/exec/mod.ts";
import { ProcReader } from "./engine/watch/mod.ts";
import { ScreenRenderer } from "./engine/screen/mod.ts";

/**
 * Every long-lived service of one server process, built once here and handed to the transports
 * (stdio, HTTP), which only adapt requests to it. One tmux control connection, one workspace.
 */
export interface App {
  readonly config: Readonly<Config>;
  /** The tmux server: one persistent control-mode connection plus the one-shot path. */
  readonly tmux: TmuxServer;
  /** The workspace session that owns every pane this server creates. */
  readonly workspace: Workspace;
  /** Live output bytes of any pane (log follower for owned panes, %output for others). */
  readonly output: PaneOutput;
  /** Process facts from /proc, read through tmux (the sandbox does not let Deno read /proc). */
  readonly proc: ProcReader;
  /** Commands typed into panes' shells, one at a time per pane. */
  readonly executor: Executor;
  /** Long-running processes: started, awaited until ready, stopped with proof. */
  readonly processes: ProcessManager;
  /** Multi-line input pasted through a buffer namespaced to this server. */
  readonly paster: Paster;
  /** Renders screens as HTML/SVG; loads the terminal emulator on first use. */
  readonly screens: ScreenRenderer;
  readonly audit: AuditLog;
  /** Removes the workspace (unless --keep) and releases every resource; bounded in time by the caller. */
  close(): Promise<void>;
}

/** Builds the app from a validated configuration. Nothing talks to tmux until the first call. */
export async function createApp(config: Readonly<Config>): Promise<App> {
  const audit = await AuditLog.open({ file: config.audit, fullDir: config.auditFull, payloads: config.auditPayloads });
  const workspace = new Workspace(config);
  const tmux = workspace.tmux;
  const output = new PaneOutput(tmux, logDir(config.stateDir));
  const executor = new Executor(tmux, output, config.stateDir);
  return {
    config,
    tmux,
    workspace,
    output,
    proc: new ProcReader(tmux, config.stateDir),
    executor,
    processes: new ProcessManager(workspace, executor),
    paster: new Paster(tmux, config.pid),
    screens: new ScreenRenderer(),
    audit,
    async close() {
      try {
        await workspace.shutdown();
      } finally {
        output.close();
        audit.close();
      }
    },
  };
}
