import type { Workspace } from "./workspace.ts";
import type { AgentName } from "./agent_name.ts";

/** Makes an owner's workspace on a host (the app knows the links and the session slots). */
export type WorkspaceFactory = (instance: string, host: string) => Workspace;

/**
 * An owner (see the workspaces room): one instance id that names, `owned`, tiers and
 * self-protection go by, and at most one workspace per host, made on first use. The process
 * owner serves stdio, the bridge and --shared-workspace; each HTTP MCP session has its own.
 */
export class WorkspaceOwner {
  readonly #workspaces = new Map<string, Workspace>();
  #ended: Promise<void> | null = null;
  #agent: AgentName | null = null;

  constructor(
    readonly instance: string,
    private readonly make: WorkspaceFactory,
    /** Told once every workspace has ended (the app forgets the owner). */
    private readonly onEnded?: () => void,
  ) {}

  /** This owner's workspace on `host` made on first call; its tmux session opens on first use. */
  workspaceOn(host = "local"): Workspace {
    let workspace = this.#workspaces.get(host);
    if (!workspace) {
      workspace = this.make(this.instance, host);
      workspace.agent = this.#agent;
      this.#workspaces.set(host, workspace);
      if (this.#ended) void workspace.end(); // an ended owner opens nothing new
    }
    return workspace;
  }

  /** Names the agent (MCP client) acting as this owner: every pane its workspaces create from now on carries it. */
  nameAgent(agent: AgentName | null): void {
    this.#agent = agent;
    for (const workspace of this.#workspaces.values()) workspace.agent = agent;
  }

  get agent(): AgentName | null {
    return this.#agent;
  }

  /** Whether this owner has made its workspace on `host`. */
  hasWorkspaceOn(host: string): boolean {
    return this.#workspaces.has(host);
  }

  get ended(): boolean {
    return this.#ended !== null;
  }

  /** Ends this owner's workspaces on remote hosts now (before their links close); the local one ends with `end()`. */
  async endRemote(): Promise<void> {
    await Promise.all([...this.#workspaces].filter(([host]) => host !== "local").map(([, w]) => w.end()));
  }

  /** Ends every workspace of this owner (panes killed and logs kept, or kept with --keep). Once only. */
  end(): Promise<void> {
    this.#ended ??= Promise.all([...this.#workspaces.values()].map((w) => w.end())).then(() => this.onEnded?.());
    return this.#ended;
  }
}
