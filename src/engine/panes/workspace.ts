import type { Config } from "../../config.ts";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import { escapeFormat } from "../../tmux/quote.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { TmuxError } from "../../tmux/errors.ts";
import { stoppedBy, ToolError } from "../errors.ts";
import type { RemoteLogs } from "../output/mod.ts";
import type { PolicyGate } from "../policy/mod.ts";
import { encodeName, PANE_TEMPLATE, type PaneInfo, parsePanes } from "./panes.ts";
import { openWorkspaceSession } from "./workspace_session.ts";
import { PaneNameHints } from "./targets.ts";
import { ensureLogDir, logPathFor, pipeCommand, pruneLogs, recordLog } from "../output/mod.ts";
import type { ServerEvents } from "../events/mod.ts";
import { OwnerLock, pruneDeadLocks, reapDeadWorkspaces, WORKSPACE_OPTIONS } from "../workspaces/mod.ts";
import { stopForeignLogs } from "./pane_logs.ts";
import { RecentPanes } from "./recent_panes.ts";
import { encodeMarks, type Launch, type ShellIntegration } from "../integration/mod.ts";
import { paneEnvironment } from "./pane_env.ts";
import { confirmStarted, GATE_SCRIPT, GATE_TIMING, gateChannel, lockCommand, releaseGate } from "./gate.ts";
import { withinDeadline } from "./pane_deadline.ts";
import { AGENT_OPTION, type AgentName, encodeAgent } from "./agent_name.ts";

export interface CreatePaneOptions {
  command?: string;
  name?: string;
  cwd?: string;
  env?: Record<string, string>;
  login?: boolean;
  /** Split this pane instead of opening a new window. */
  splitFrom?: string;
  direction?: "right" | "below" | "left" | "above";
  /** Percentage of the split pane's size for the new pane. */
  size?: number;
  /** Open the new window here (a target like "$3:" or "$3:4") instead of in the workspace session. */
  windowIn?: string;
  /** The new window's name (default: the pane's name). */
  windowName?: string;
  /** Open a new session holding the pane (tmux names it when `name` is absent). */
  newSession?: { name?: string };
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

/** A long-running server applies log retention again this often. */
const PRUNE_EVERY_MS = 60 * 60_000;

/** Whose workspace this is, and how it stands to the link's control connection. */
export interface WorkspaceRole {
  /** The owner's instance id (see the workspaces room): names, `owned`, tiers and self-protection. */
  instance: string;
  /**
   * The process owner's workspace is the hub the control connection attaches to (its `prepare`
   * runs on every connect) and ends with the process; a session owner's workspace is opened on
   * first use and ended on its own.
   */
  hub: boolean;
  /** Tried first for the session name: 1 is `tmuxwright-<pid>`, n is `tmuxwright-<pid>-<n>`. */
  firstSlot: number;
  /**
   * On a remote host: every owner's panes live in the link's hub session (tmux sends `%output` only
   * for the attached session's panes) and their logs are written locally from it.
   */
  remote?: { hubSession: string; logs: RemoteLogs; shells?: { launch(login: boolean): Promise<Launch | null> } };
  /** The command policy: a pane's command (and variables that run code) are judged before tmux starts it. */
  gate?: PolicyGate;
}

/**
 * One owner's workspace session on one tmux server (owner × host): `tmuxwright-<pid>` for the
 * process owner, `tmuxwright-<pid>-<n>` for an HTTP MCP session's owner. Created on first use,
 * home of every pane the owner creates, removed when the owner ends unless --keep. Pane names
 * belong to the owner: a name resolves among the panes its instance created, so owners side by
 * side on one tmux server can each have `default` and `web`.
 */
export class Workspace {
  readonly instance: string;
  /** Where this owner's pane names were last found (see `PaneNameHints`). */
  readonly names: PaneNameHints;
  #sessionName: string;
  #sessionId: string | null = null;
  /** The link connection the remote hub was last looked at on (nothing to look at again until it changes). */
  #openedOn = -1;
  #socketPath: string | null = null;
  #lock: Promise<OwnerLock | null> | null = null;
  #gateCounter = 0;
  #creating: Promise<unknown> = Promise.resolve();
  #reaping: Promise<string[]> | null = null;
  /** Log retention and old lock files, begun after the first reaping; the end waits for it. */
  #pruning: Promise<void> = Promise.resolve();
  #prunedAt = 0;
  /** The hub looks again every --reap-every seconds: servers killed after this one started leave workspaces too. */
  #reapTimer: ReturnType<typeof setInterval> | undefined;
  #reapingAgain = false;
  #defaultPane: Promise<unknown> = Promise.resolve();
  #ended: Promise<void> | null = null;
  /** The agent whose calls create this workspace's panes (set by its owner), stored on each pane. */
  agent: AgentName | null = null;

  constructor(
    private readonly config: Readonly<Config>,
    private readonly events: ServerEvents,
    /** The link to this host's tmux server, shared by every owner's workspace on it. */
    readonly tmux: TmuxServer,
    private readonly role: WorkspaceRole,
    /** Starts the user's shell with its marks (absent: shells start as they are). */
    private readonly integration?: ShellIntegration,
  ) {
    this.instance = role.instance;
    this.names = new PaneNameHints(role.remote ? new RecentPanes(tmux) : undefined);
    this.#sessionName = role.remote
      ? role.remote.hubSession
      : role.firstSlot === 1
      ? `tmuxwright-${config.pid}`
      : `tmuxwright-${config.pid}-${role.firstSlot}`;
  }

  get sessionName(): string {
    return this.#sessionName;
  }

  get sessionId(): string | null {
    return this.#sessionId;
  }

  /** The tmux server's socket path, known once connected (identifies panes in the log registry). */
  get socketPath(): string | null {
    if (this.role.remote) return `ssh:${this.tmux.host}`; // as its log registry lines name the server
    return this.#socketPath;
  }

  /** Whether this server's tmux is the one the server process itself runs inside (from TMUX). */
  get sameServerAsCaller(): boolean {
    const caller = this.config.caller;
    return caller !== null && this.#socketPath !== null && samePath(caller.socketPath, this.#socketPath);
  }

  /** The command a person runs to watch the workspace live. */
  get attachCommand(): string {
    if (this.tmux.remote) return `tmuxwright attach --host ${this.tmux.host}`;
    return ["tmux", ...this.config.socketArgs, "attach", "-t", `=${this.#sessionName}`].join(" ");
  }

  /** Created by this server process: its names are the ones this server resolves. */
  isOwned(pane: PaneInfo): boolean {
    return pane.instance === this.instance;
  }

  /** The workspace of another tmuxwright server that created this pane, or null. */
  otherWorkspace(pane: PaneInfo): string | null {
    return pane.instance !== null && !this.isOwned(pane) ? pane.workspace : null;
  }

  /** A hub pane (window 0 of any workspace) keeps its session alive; nobody may kill it. */
  isHub(pane: PaneInfo): boolean {
    return pane.hub;
  }

  /** Creates an owned pane whose output is logged from its first byte. */
  async createPane(options: CreatePaneOptions): Promise<CreatedPane> {
    // Judged before the queue: a question to a person must not hold up other calls' panes.
    if (options.command !== undefined) {
      await this.role.gate?.check({ command: options.command, pane: null, host: this.tmux.host });
    }
    await this.role.gate?.checkEnvironment(options.env, null, this.tmux.host);
    // Serialised so two calls cannot both claim one name.
    const turn = this.#creating;
    const run = turn.then(() => this.#createPane(options));
    this.#creating = run.catch(() => {});
    await withinDeadline(turn, options.signal, "waiting for the panes this session asked for before it");
    return run;
  }

  async #createPane(options: CreatePaneOptions): Promise<CreatedPane> {
    if (options.signal?.aborted) throw stoppedBy(options.signal, "waiting for its turn"); // its caller has its answer
    if (options.name !== undefined) await this.#assertNameFree(options.name);
    const channel = gateChannel(this.instance, ++this.#gateCounter);
    const shellArgs = [this.config.shell, ...(options.login ? ["-l"] : [])];
    // The user's own shell, at its prompt for commands: started with the marks of its integration
    // (on a host, set up there in the same round trip as the workspace's look).
    const userShell = options.argv === undefined && options.command === undefined;
    const [, launch] = await withinDeadline(
      Promise.all([
        this.open(), // connects, creating the workspace if needed
        !userShell
          ? null
          : this.role.remote
          ? this.role.remote.shells?.launch(options.login ?? false) ?? null
          : this.integration?.launch(this.config.shell, options.login ?? false) ?? null,
      ]),
      options.signal,
      "making this session's workspace (a tmux session: they are made one at a time)",
    );
    const program = options.argv ?? launch?.argv ??
      (this.role.remote
        ? remoteShell(options.command, options.login ?? false)
        : options.command === undefined
        ? shellArgs
        : [...shellArgs, "-c", options.command]);
    const common = ["-d", "-P", "-F", PANE_TEMPLATE];
    if (options.cwd !== undefined) common.push("-c", escapeFormat(options.cwd));
    // No pagers (then --pane-env), then the call's own; the integration's variables last.
    const env = { ...paneEnvironment(this.config.paneEnv), ...options.env, ...launch?.env };
    for (const [key, value] of Object.entries(env)) common.push("-e", `${key}=${value}`);
    const argv = ["--", "/bin/sh", "-c", GATE_SCRIPT, "tmuxwright-gate", channel, ...program];

    // Locked before the pane exists (its gate waits for the unlock), sent in the same write as the spawn.
    const locked = this.tmux.run(...lockCommand(channel));
    const created = await Promise.all([locked, this.#spawn(options, common, argv)]).then(([, c]) => c).catch(
      async (error) => {
        await releaseGate(this.tmux, channel).catch(() => {});
        throw error;
      },
    );
    const pane = parsePanes(created)[0];
    const logPath = logPathFor(this.config.stateDir, this.config.pid, pane.paneId, this.tmux.host);
    const setups: string[][] = [
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_owner", String(this.config.pid)],
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_instance", this.instance],
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_workspace", this.#sessionName],
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_log", encodeName(logPath)],
      ["set-option", "-p", "-t", pane.paneId, "remain-on-exit", "on"],
    ];
    if (this.role.remote) {
      await this.role.remote.logs.register(pane.paneId, logPath); // from %output, before the gate opens
    } else {
      const limits = { maxBytes: this.config.logMaxBytes, keep: this.config.logKeep };
      setups.push(["pipe-pane", "-o", "-t", pane.paneId, pipeCommand(logPath, limits)]);
    }
    if (options.name !== undefined) {
      setups.push(["set-option", "-p", "-t", pane.paneId, "@tmuxwright_name", encodeName(options.name)]);
    }
    if (launch) setups.push(["set-option", "-p", "-t", pane.paneId, "@tmuxwright_marks", encodeMarks(launch.marks)]);
    if (this.agent) setups.push(["set-option", "-p", "-t", pane.paneId, AGENT_OPTION, encodeAgent(this.agent)]);
    // The user's shell is starting: its start-up files may run programs for a while (see exec's prompt wait).
    const shellSince = options.argv === undefined && options.command === undefined ? Date.now() : null;
    if (shellSince !== null) {
      setups.push(["set-option", "-p", "-t", pane.paneId, "@tmuxwright_shell_since", String(shellSince)]);
    }
    // The gate is unlocked in the same write: tmux runs each line even when one before it failed.
    const settled = await Promise.allSettled(await this.tmux.pipeline([...setups, ["wait-for", "-U", channel]]));
    const failed = settled.slice(0, -1).find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    // Nothing is typed into a pane still in its gate; at the call's deadline it is returned starting.
    const started = await confirmStarted(this.tmux, pane.paneId, channel, GATE_TIMING, options.signal);
    await recordLog(this.config.stateDir, {
      pane_id: pane.paneId,
      name: options.name ?? null,
      session: pane.sessionName,
      socket: this.role.remote ? `ssh:${this.tmux.host}` : this.#socketPath,
      owner_pid: this.config.pid,
      instance: this.instance,
      created: new Date().toISOString(),
      path: logPath,
    });
    return {
      pane: {
        ...pane,
        name: options.name ?? null,
        ownerPid: this.config.pid,
        instance: this.instance,
        workspace: this.#sessionName,
        logPath,
        marks: launch?.marks ?? null,
        shellSince,
        agent: this.agent,
      },
      logPath,
      ...(started ? {} : { starting: true as const }),
    };
  }

  /** Opens the pane (split, window or session) running `argv`; tmux's listing of it. */
  async #spawn(options: CreatePaneOptions, common: string[], argv: string[]): Promise<string[]> {
    if (options.splitFrom) {
      const dir = options.direction ?? "below";
      const flags = [
        dir === "right" || dir === "left" ? "-h" : "-v",
        ...(dir === "left" || dir === "above" ? ["-b"] : []),
      ];
      if (options.size !== undefined) flags.push("-l", `${options.size}%`);
      // -d: the window's active pane stays (a change of it is told to every control client: src/tmux/notifying.ts).
      return await this.tmux.run("split-window", "-d", "-t", options.splitFrom, ...flags, ...common, ...argv);
    } else {
      const title = options.windowName ?? options.name;
      const windowName = title === undefined ? [] : ["-n", escapeFormat(sanitizeTitle(title))];
      if (options.newSession) {
        const name = options.newSession.name === undefined ? [] : ["-s", escapeFormat(options.newSession.name)];
        const newSession = ["new-session", "-d", ...name, ...windowName, ...common, ...argv];
        return await this.tmux.guarded([newSession]);
      } else {
        const target = options.windowIn ?? `${this.#sessionId}:`;
        // -d: the session's current window stays (src/tmux/notifying.ts).
        return await this.tmux.run("new-window", "-d", "-t", target, ...windowName, ...common, ...argv);
      }
    }
  }

  /** The owned pane named `default`, created on first use (and again if it was killed or exited). */
  defaultPane(): Promise<{ pane: PaneInfo; created: boolean }> {
    const run = this.#defaultPane.then(async () => {
      const hinted = await this.names.check(this.tmux, "default", this.instance);
      if (hinted) return { pane: hinted, created: false };
      const panes = parsePanes(await this.tmux.run("list-panes", "-a", "-F", PANE_TEMPLATE));
      const found = panes.find((p) => p.name === "default" && this.isOwned(p));
      if (found && !found.dead) return { pane: this.names.remember(found), created: false };
      if (found) await this.tmux.guarded([["kill-pane", "-t", found.paneId]]);
      return { pane: this.names.remember((await this.createPane({ name: "default" })).pane), created: true };
    });
    this.#defaultPane = run.catch(() => {});
    return run;
  }

  async #assertNameFree(name: string): Promise<void> {
    const panes = parsePanes(await this.tmux.run("list-panes", "-a", "-F", PANE_TEMPLATE));
    const holder = panes.find((p) => p.name === name && this.isOwned(p)); // names are per workspace
    if (holder) {
      throw new ToolError(
        "NAME_IN_USE",
        `Cannot create pane "${name}": the name is already used by pane ${holder.paneId}`,
        "Choose another name, or kill_pane the old one first.",
      );
    }
  }

  /**
   * Connects and makes sure this workspace's session exists (again after a tmux restart); returns
   * its id. A session owner's workspace is checked with one one-shot call.
   */
  async open(): Promise<string> {
    if (this.#ended) throw workspaceEnded();
    if (this.role.remote) return await this.#openRemote();
    await this.tmux.run("display-message", "-p", "ok"); // connects: the hub workspace exists, stale ones are reaped
    if (!this.role.hub) await this.prepare();
    return this.#sessionId!;
  }

  /**
   * A remote workspace is the link's hub session (the link's script made it): its id is read, its
   * first pane marked as the hub, and new panes get this server's history limit.
   */
  async #openRemote(): Promise<string> {
    await ensureLogDir(this.config.stateDir);
    await this.tmux.connect();
    // Looked at once per connection: if the hub went, so did the link attached to it.
    if (this.#sessionId !== null && this.#openedOn === this.tmux.connections) return this.#sessionId;
    const connection = this.tmux.connections;
    const hub = `=${this.#sessionName}:`;
    const [[line]] = await this.tmux.batch([
      ["display-message", "-p", "-t", hub, "#{session_id}\x1f#{pane_id}"],
      ["set-option", "-t", hub, "history-limit", String(this.config.historyLimit)],
    ]);
    const [sessionId, hubPane] = (line ?? "").split("\x1f");
    if (!sessionId?.startsWith("$") || !hubPane?.startsWith("%")) {
      throw new ToolError(
        "TMUX_UNAVAILABLE",
        `Cannot find the session ${this.#sessionName} on host ${this.tmux.host}: the link is attached but tmux did not name it`,
        `Retry; if it persists, run tmuxwright doctor --host ${this.tmux.host}.`,
      );
    }
    if (this.#sessionId !== sessionId) {
      await this.tmux.run("set-option", "-p", "-t", hubPane, "@tmuxwright_hub", "1");
    }
    this.#sessionId = sessionId;
    this.#openedOn = connection;
    return sessionId;
  }

  /**
   * Takes the owner lock (once), reaps dead workspaces (hub only: once per process), and finds or
   * creates this owner's session. The link calls it for the hub workspace on every connect.
   */
  async prepare(): Promise<string> {
    await ensureLogDir(this.config.stateDir);
    const lock = await (this.#lock ??= OwnerLock.acquire(this.config.stateDir, this.instance).catch((error) => {
      // Without the lock others cannot prove this process lives, so they leave its workspace alone.
      console.error("[tmuxwright] cannot take the workspace owner lock:", (error as Error).message);
      return null;
    }));
    if (this.role.hub) await this.reapStale(); // a dead workspace's panes would keep running for nobody
    const session = await openWorkspaceSession({
      firstSlot: this.role.firstSlot,
      socketArgs: this.config.socketArgs,
      tmuxConfig: this.config.tmuxConfig,
      pid: this.config.pid,
      instance: this.instance,
      lockPath: lock?.path ?? null,
      historyLimit: this.config.historyLimit,
      guarded: (commands) => this.tmux.guarded(commands),
    });
    this.#sessionName = session.name;
    this.#sessionId = session.sessionId;
    this.#socketPath = session.socketPath;
    return session.name;
  }

  /**
   * Removes workspace sessions whose owning process is proven dead, old logs and dead owners'
   * lock files (once per process; later calls share the result). Never touches other sessions.
   */
  reapStale(): Promise<string[]> {
    this.#reaping ??= this.#reapStale().catch(() => []);
    return this.#reaping;
  }

  async #reapStale(): Promise<string[]> {
    try {
      const reaped = await this.#reapDead();
      // Old logs and lock files go meanwhile: a state directory of thousands of logs must not hold up the first pane.
      this.#pruning = this.#prune();
      return reaped;
    } finally {
      if (this.role.hub && this.#ended === null) {
        this.#reapTimer ??= setInterval(() => void this.#reapAgain(), this.config.reapEverySec * 1000);
        Deno.unrefTimer(this.#reapTimer);
      }
    }
  }

  async #reapDead(): Promise<string[]> {
    const { socketArgs, stateDir } = this.config;
    const reaped = await reapDeadWorkspaces(this.tmux, socketArgs, stateDir, this.instance, this.config.processFacts);
    if (reaped.length > 0) {
      this.events.log("info", "workspace", `removed stale workspaces whose server is gone: ${reaped.join(", ")}`);
    }
    return reaped;
  }

  async #prune(): Promise<void> {
    const { stateDir, logRetentionDays } = this.config;
    this.#prunedAt = performance.now();
    await pruneLogs(stateDir, logRetentionDays)
      .catch((error) => this.events.log("error", "logs", `log retention failed: ${(error as Error).message}`));
    await pruneDeadLocks(stateDir, logRetentionDays).catch(() => {});
  }

  /** A later look (one at a time): dead workspaces, and retention again once an hour. */
  async #reapAgain(): Promise<void> {
    if (this.#ended !== null || this.#reapingAgain) return;
    this.#reapingAgain = true;
    try {
      await this.#reapDead();
      if (this.#ended !== null) return;
      if (performance.now() - this.#prunedAt > PRUNE_EVERY_MS) await (this.#pruning = this.#prune());
    } catch {
      /* tmux is out of reach now: the next look tries again */
    } finally {
      this.#reapingAgain = false;
    }
  }

  /** Kills this owner's panes on the host (logs stay here); with --keep they stay. A host that cannot be reached keeps them (the lease). */
  async #endRemote(): Promise<void> {
    if (this.config.keep || this.#sessionId === null) return;
    // A link cut since its last call (noticed or not yet) is dialled once more: its panes would
    // otherwise stay until the lease ends.
    const onLink = async <T>(run: () => Promise<T>): Promise<T | null> => {
      try {
        if (!this.tmux.connected) await this.tmux.connect();
        return await run();
      } catch {
        await this.tmux.connect().catch(() => {});
        return this.tmux.connected ? await run().catch(() => null) : null;
      }
    };
    const listed = await onLink(() => this.tmux.run("list-panes", "-a", "-F", "#{pane_id}\x1f#{@tmuxwright_instance}"));
    const owned = (listed ?? []).map((line) => line.split("\x1f")).filter(([id, owner]) =>
      /^%\d+$/.test(id) && owner === this.instance
    );
    if (owned.length > 0) await onLink(() => this.tmux.guarded(owned.map(([id]) => ["kill-pane", "-t", id])));
  }

  async #killOwnedElsewhere(): Promise<void> {
    const kills = await killOwnedElsewhere(this.config.socketArgs, this.instance, this.#sessionName);
    await this.tmux.guarded(kills);
  }

  /**
   * Ends the workspace: its panes are killed (logs stay on disk), or with --keep it is marked
   * kept; then the owner lock is released. The hub workspace of an isolated server takes the
   * whole private tmux server with it. Once only; later calls share the first. Bounded by the caller.
   */
  end(): Promise<void> {
    this.names.recent?.close();
    clearInterval(this.#reapTimer);
    this.#ended ??= this.#end();
    return this.#ended;
  }

  async #end(): Promise<void> {
    await this.#creating; // a pane being created when the end came goes with the rest
    await this.#pruning;
    if (this.role.remote) return await this.#endRemote();
    const lock = this.#lock === null ? null : await this.#lock;
    const session = this.#sessionId;
    if (session !== null) {
      const socket = this.config.socketArgs;
      if (this.config.keep) {
        await tmuxOneShot([...socket, "set-option", "-t", session, WORKSPACE_OPTIONS.kept, "1"]);
      } else if (this.config.isolated && this.role.hub) {
        await tmuxOneShot([...socket, "kill-server"]);
      } else {
        await this.#killOwnedElsewhere();
        if (this.role.hub) await stopForeignLogs(this.config, this.instance);
        // Already gone (tmux restarted, a person killed it): nothing is left to end.
        await this.tmux.guarded([["kill-session", "-t", session]]).catch((error) => {
          if (!(error instanceof TmuxError && error.kind === "target_gone")) throw error;
        });
      }
    }
    // Released last: until the workspace is gone or marked kept, nobody may take it for dead.
    await lock?.release();
  }
}

/** The remote user's own shell (tmux's SHELL there), or `command` run by it: tmuxwright's local shell may not exist there. */
function remoteShell(command: string | undefined, login: boolean): string[] {
  const shell = 'exec "${SHELL:-/bin/sh}" "$@"';
  if (command !== undefined) return ["/bin/sh", "-c", shell, "sh", "-c", command];
  return ["/bin/sh", "-c", shell, "sh", ...(login ? ["-l"] : [])];
}

function workspaceEnded(): ToolError {
  return new ToolError(
    "NOT_FOUND",
    "Cannot use the workspace: its MCP session has ended and its panes were removed",
    "Open a new MCP session (initialize) to get a fresh workspace.",
  );
}

/**
 * Owned panes outside the workspace (create_session, create_window, moved windows) go too: a
 * window or session whose panes were all ours disappears with them; a pane a person added stays.
 */
async function killOwnedElsewhere(socketArgs: readonly string[], instance: string, workspace: string) {
  const listed = await tmuxOneShot([
    ...socketArgs,
    "list-panes",
    "-a",
    "-F",
    "#{pane_id}\x1f#{@tmuxwright_instance}\x1f#{session_name}",
  ]);
  return listed.stdout.split("\n").map((line) => line.split("\x1f"))
    .filter(([id, owner, session]) => /^%\d+$/.test(id) && owner === instance && session !== workspace)
    .map(([id]) => ["kill-pane", "-t", id]);
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return Deno.realPathSync(a) === Deno.realPathSync(b);
  } catch {
    return false;
  }
}

/** Window names are shown to people: no control characters, bounded length. */
function sanitizeTitle(name: string): string {
  // deno-lint-ignore no-control-regex
  return name.replace(/[\x00-\x1f\x7f]/g, " ").slice(0, 60);
}
