import type { Config } from "../../config.ts";
import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import type { PaneInfo } from "./panes.ts";
import { openWorkspaceSession } from "./workspace_session.ts";
import { PaneNameHints } from "./targets.ts";
import { ensureLogDir } from "../output/mod.ts";
import type { ServerEvents } from "../events/mod.ts";
import { OwnerLock } from "../workspaces/mod.ts";
import { RecentPanes } from "./recent_panes.ts";
import type { ShellIntegration } from "../integration/mod.ts";
import { withinDeadline } from "./pane_deadline.ts";
import type { AgentName } from "./agent_name.ts";
import { type CreatedPane, type CreatePaneOptions, PaneMaker } from "./pane_create.ts";
import { ownedPaneNamed } from "./owned_names.ts";
import { WorkspaceUpkeep } from "./workspace_upkeep.ts";
import { endLocalWorkspace } from "./workspace_end.ts";
import { killRemotePanes, lookAtRemoteHub } from "./remote_workspace.ts";
import type { WorkspaceRole } from "./workspace_role.ts";

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
  readonly #maker: PaneMaker;
  #creating: Promise<unknown> = Promise.resolve();
  readonly #upkeep: WorkspaceUpkeep;
  #defaultPane: Promise<unknown> = Promise.resolve();
  #ended: Promise<void> | null = null;
  /** The agent whose calls create this workspace's panes (set by its owner), stored on each pane. */
  agent: AgentName | null = null;

  constructor(
    private readonly config: Readonly<Config>,
    events: ServerEvents,
    /** The link to this host's tmux server, shared by every owner's workspace on it. */
    readonly tmux: TmuxServer,
    private readonly role: WorkspaceRole,
    /** Starts the user's shell with its marks (absent: shells start as they are). */
    integration?: ShellIntegration,
  ) {
    this.instance = role.instance;
    this.names = new PaneNameHints(role.remote ? new RecentPanes(tmux) : undefined);
    this.#sessionName = role.remote
      ? role.remote.hubSession
      : role.firstSlot === 1
      ? `tmuxwright-${config.pid}`
      : `tmuxwright-${config.pid}-${role.firstSlot}`;
    this.#maker = new PaneMaker(config, this, role.remote, integration);
    this.#upkeep = new WorkspaceUpkeep(config, events, tmux, role.instance, role.hub);
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

  /** Creates an owned pane whose output is logged from its first byte (pane_create.ts). */
  async createPane(options: CreatePaneOptions): Promise<CreatedPane> {
    // Judged before the queue: a question to a person must not hold up other calls' panes.
    if (options.command !== undefined) {
      await this.role.gate?.check({ command: options.command, pane: null, host: this.tmux.host });
    }
    await this.role.gate?.checkEnvironment(options.env, null, this.tmux.host);
    // Serialised so two calls cannot both claim one name.
    const turn = this.#creating;
    const run = turn.then(async () => {
      const created = await this.#maker.create(options);
      this.names.made(created.pane);
      return created;
    });
    this.#creating = run.catch(() => {});
    await withinDeadline(turn, options.signal, "waiting for the panes this session asked for before it");
    return run;
  }

  /** The owned pane named `default`, created on first use (and again if it was killed or exited). */
  defaultPane(): Promise<{ pane: PaneInfo; created: boolean }> {
    const run = this.#defaultPane.then(async () => {
      const hinted = await this.names.check(this.tmux, "default", this.instance);
      if (hinted) return { pane: hinted, created: false };
      const found = await ownedPaneNamed(this.tmux, this.instance, "default");
      if (found && !found.dead) return { pane: this.names.remember(found), created: false };
      if (found) await this.tmux.guarded([["kill-pane", "-t", found.paneId]]);
      return { pane: this.names.remember((await this.createPane({ name: "default" })).pane), created: true };
    });
    this.#defaultPane = run.catch(() => {});
    return run;
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

  /** A remote workspace is the link's hub session (remote_workspace.ts). */
  async #openRemote(): Promise<string> {
    await ensureLogDir(this.config.stateDir);
    await this.tmux.connect();
    // Looked at once per connection: if the hub went, so did the link attached to it.
    if (this.#sessionId !== null && this.#openedOn === this.tmux.connections) return this.#sessionId;
    const connection = this.tmux.connections;
    const { historyLimit } = this.config;
    this.#sessionId = await lookAtRemoteHub(this.tmux, this.#sessionName, historyLimit, this.#sessionId);
    this.#openedOn = connection;
    return this.#sessionId;
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
      kept: this.config.keep,
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
    return this.#upkeep.reapStale();
  }

  /**
   * Ends the workspace: its panes are killed (logs stay on disk), or with --keep it is marked
   * kept; then the owner lock is released. The hub workspace of an isolated server takes the
   * whole private tmux server with it. Once only; later calls share the first. Bounded by the caller.
   */
  end(): Promise<void> {
    this.names.recent?.close();
    this.#upkeep.stop();
    this.#ended ??= this.#end();
    return this.#ended;
  }

  async #end(): Promise<void> {
    await this.#creating; // a pane being created when the end came goes with the rest
    await this.#upkeep.pruning;
    if (this.role.remote) {
      // With --keep they stay; a host that cannot be reached keeps them (the lease).
      if (!this.config.keep && this.#sessionId !== null) await killRemotePanes(this.tmux, this.instance);
      return;
    }
    const lock = this.#lock === null ? null : await this.#lock;
    if (this.#sessionId !== null) { // a session was made
      const { instance, role: { hub } } = this;
      await endLocalWorkspace(this.config, this.tmux, { instance, hub, sessionName: this.#sessionName });
    }
    // Released last: until the workspace is gone or marked kept, nobody may take it for dead.
    await lock?.release();
  }
}

function workspaceEnded(): ToolError {
  return new ToolError(
    "NOT_FOUND",
    "Cannot use the workspace: its MCP session has ended and its panes were removed",
    "Open a new MCP session (initialize) to get a fresh workspace.",
  );
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return Deno.realPathSync(a) === Deno.realPathSync(b);
  } catch {
    return false;
  }
}
