import type { Config } from "../../config.ts";
import { escapeFormat } from "../../tmux/quote.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { stoppedBy } from "../errors.ts";
import { logPathFor, pipeCommand, recordLog } from "../output/mod.ts";
import { encodeMarks, type ShellIntegration } from "../integration/mod.ts";
import { encodeName, PANE_TEMPLATE, type PaneInfo, parsePanes } from "./panes.ts";
import { paneEnvironment } from "./pane_env.ts";
import { claudeHooksEnv } from "../agents/mod.ts";
import {
  confirmStarted,
  GATE_SCRIPT,
  GATE_STEP,
  GATE_STEP_SCRIPT,
  GATE_TIMING,
  gateChannel,
  lockCommand,
  releaseGate,
  TOP_OPTION,
} from "./gate.ts";
import { withinDeadline } from "./pane_deadline.ts";
import { AGENT_OPTION, type AgentName, encodeAgent } from "./agent_name.ts";
import { assertNameFree } from "./owned_names.ts";
import { paneProgram, spawnPane, type SpawnPlace } from "./pane_spawn.ts";
import type { RemoteRole } from "./workspace_role.ts";

export interface CreatePaneOptions extends SpawnPlace {
  command?: string;
  name?: string;
  cwd?: string;
  env?: Record<string, string>;
  login?: boolean;
  /** Run exactly this program (no shell), instead of `command` or the user's shell. */
  argv?: string[];
  /** The call's deadline (and cancellation): see pane_deadline.ts and confirmStarted. */
  signal?: AbortSignal;
}

/** A pane made; `starting`: the call's deadline came before its program was seen started (it is let run). */
export interface CreatedPane {
  pane: PaneInfo;
  logPath: string;
  starting?: true;
}

/** What making a pane needs of its workspace (the Workspace itself): where it goes, whose it is. */
export interface PaneHome {
  readonly instance: string;
  readonly tmux: TmuxServer;
  readonly sessionName: string;
  readonly sessionId: string | null;
  readonly socketPath: string | null;
  readonly agent: AgentName | null;
  /** Connects, creating the workspace's session if needed. */
  open(): Promise<string>;
}

/**
 * Makes a workspace's owned panes: each starts behind its start-up gate, gets its owner's options
 * and its log pipe in one write, and is let through; so its output is logged from the first byte.
 * One call at a time (the workspace queues them).
 */
export class PaneMaker {
  #gateCounter = 0;

  constructor(
    private readonly config: Readonly<Config>,
    private readonly home: PaneHome,
    private readonly remote: RemoteRole | undefined,
    /** Starts the user's shell with its marks (absent: shells start as they are). */
    private readonly integration?: ShellIntegration,
  ) {}

  async create(options: CreatePaneOptions): Promise<CreatedPane> {
    const { config, home, remote } = this;
    const tmux = home.tmux;
    if (options.signal?.aborted) throw stoppedBy(options.signal, "waiting for its turn"); // its caller has its answer
    if (options.name !== undefined) await assertNameFree(tmux, home.instance, options.name);
    const channel = gateChannel(home.instance, ++this.#gateCounter);
    // The user's own shell, at its prompt for commands: started with the marks of its integration
    // (on a host, set up there in the same round trip as the workspace's look).
    const userShell = options.argv === undefined && options.command === undefined;
    const [, launch] = await withinDeadline(
      Promise.all([
        home.open(), // connects, creating the workspace if needed
        !userShell
          ? null
          : remote
          ? remote.shells?.launch(options.login ?? false) ?? null
          : this.integration?.launch(config.shell, options.login ?? false) ?? null,
      ]),
      options.signal,
      "making this session's workspace (a tmux session: they are made one at a time)",
    );
    const program = options.argv ?? launch?.argv ??
      paneProgram(options.command, options.login ?? false, config.shell, remote !== undefined);
    const common = ["-d", "-P", "-F", PANE_TEMPLATE];
    if (options.cwd !== undefined) common.push("-c", escapeFormat(options.cwd));
    // No pagers and, on this machine, Claude Code's hooks (then --pane-env); the call's own; the integration's last.
    const env = {
      ...paneEnvironment(config.paneEnv, remote ? {} : claudeHooksEnv(config.stateDir)),
      ...options.env,
      ...launch?.env,
    };
    for (const [key, value] of Object.entries(env)) common.push("-e", `${key}=${value}`);
    // A command's output starts one row down: a pane that dies keeps its first line on the screen (gate.ts).
    const gate = userShell ? GATE_SCRIPT : GATE_STEP_SCRIPT;
    const argv = ["--", "/bin/sh", "-c", gate, "tmuxwright-gate", channel, ...program];

    // Locked before the pane exists (its gate waits for the unlock), sent in the same write as the spawn.
    const locked = tmux.run(...lockCommand(channel));
    const spawned = spawnPane(tmux, options, home.sessionId, common, argv);
    const created = await Promise.all([locked, spawned]).then(([, c]) => c).catch(async (error) => {
      await releaseGate(tmux, channel).catch(() => {});
      throw error;
    });
    const pane = parsePanes(created)[0];
    const logPath = logPathFor(config.stateDir, config.pid, pane.paneId, tmux.host);
    const setups: string[][] = [
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_owner", String(config.pid)],
      ...(pane.pid === null ? [] : [["set-option", "-p", "-t", pane.paneId, "@tmuxwright_pid", String(pane.pid)]]),
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_instance", home.instance],
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_workspace", home.sessionName],
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_log", encodeName(logPath)],
      ["set-option", "-p", "-t", pane.paneId, "remain-on-exit", "on"],
    ];
    const step = userShell ? null : GATE_STEP; // not the program's output: left out of its log
    if (remote) {
      await remote.logs.register(pane.paneId, logPath, step); // from %output, before the gate opens
    } else {
      const limits = { maxBytes: config.logMaxBytes, keep: config.logKeep };
      setups.push(["pipe-pane", "-o", "-t", pane.paneId, pipeCommand(logPath, limits, step?.bytes)]);
    }
    if (!userShell) setups.push(["set-option", "-p", "-t", pane.paneId, TOP_OPTION, "1"]);
    if (options.name !== undefined) {
      setups.push(["set-option", "-p", "-t", pane.paneId, "@tmuxwright_name", encodeName(options.name)]);
    }
    if (launch) setups.push(["set-option", "-p", "-t", pane.paneId, "@tmuxwright_marks", encodeMarks(launch.marks)]);
    if (home.agent) setups.push(["set-option", "-p", "-t", pane.paneId, AGENT_OPTION, encodeAgent(home.agent)]);
    // The user's shell is starting: its start-up files may run programs for a while (see exec's prompt wait).
    const shellSince = userShell ? Date.now() : null;
    if (shellSince !== null) {
      setups.push(["set-option", "-p", "-t", pane.paneId, "@tmuxwright_shell_since", String(shellSince)]);
    }
    // The gate is unlocked in the same write: tmux runs each line even when one before it failed.
    const settled = await Promise.allSettled(await tmux.pipeline([...setups, ["wait-for", "-U", channel]]));
    const failed = settled.slice(0, -1).find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    // Nothing is typed into a pane still in its gate; at the call's deadline it is returned starting.
    const started = await confirmStarted(tmux, pane.paneId, channel, GATE_TIMING, options.signal);
    await recordLog(config.stateDir, {
      pane_id: pane.paneId,
      name: options.name ?? null,
      session: pane.sessionName,
      socket: home.socketPath,
      owner_pid: config.pid,
      instance: home.instance,
      created: new Date().toISOString(),
      path: logPath,
    });
    return {
      pane: {
        ...pane,
        name: options.name ?? null,
        ownerPid: config.pid,
        instance: home.instance,
        workspace: home.sessionName,
        logPath,
        marks: launch?.marks ?? null,
        shellSince,
        agent: home.agent,
      },
      logPath,
      ...(started ? {} : { starting: true as const }),
    };
  }
}
