import type { App } from "../app.ts";
import { agentOf, type WorkspaceOwner } from "../engine/panes/mod.ts";
import { ToolError } from "../engine/errors.ts";
import type { ProcessKey } from "./process_key.ts";

/** The tool argument and the request `_meta` key a 2026-era HTTP caller passes its handle back in. */
export const WORKSPACE_ARG = "workspace";
export const WORKSPACE_META = "dev.tmuxwright/workspace";
export const WORKSPACE_ARG_SCHEMA = {
  type: "string",
  description: "from your last result",
} as const;
const PREFIX = "tw1";
/**
 * A workspace whose handle never came back and that holds no panes ends after this idle time: a
 * caller that keeps no handle (an MCP App's view polling capture_since by pane id) leaves one per
 * call, and they must not pile up.
 */
const UNCLAIMED_MS = 60_000;
const HANDLE = /^tw1\.([A-Za-z0-9_-]{11})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

/** One workspace of a 2026-era HTTP caller: its owner, what its person allowed, and its lease. */
export interface Lease {
  readonly id: string;
  readonly handle: string;
  readonly owner: WorkspaceOwner;
  /** Command lines the person allowed for the rest of this workspace's life (the policy's "session"). */
  readonly allowed: Set<string>;
  /** Requests using it now; a workspace in use never expires. */
  active: number;
  lastUsed: number;
  /** Its handle came back at least once. */
  claimed: boolean;
}

export interface WorkspaceHandlesOptions {
  /** Workspaces idle longer than this end, their panes with them (the 2025 session bound). */
  idleTimeoutMs: number;
  /** Workspaces and 2025 sessions together: at most this many. */
  room: () => boolean;
  log: (line: string) => void;
}

/**
 * The workspaces of 2026-era HTTP callers (docs/design/mcp_2026.md): a protocol without sessions
 * names an agent's workspace by a handle the server mints, `tw1.<id>.<mac>`, where the MAC (the
 * process's key) covers the id and the caller's principal (its bearer token and client name). A
 * handle cannot be guessed, forged, or used by another principal; leases end idle workspaces.
 */
export class WorkspaceHandles {
  readonly #leases = new Map<string, Lease>();
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(
    /** The process's app: every workspace's owner is one of its session owners. */
    readonly app: App,
    private readonly key: ProcessKey,
    private readonly options: WorkspaceHandlesOptions,
  ) {
    const every = Math.max(50, Math.min(15_000, Math.floor(options.idleTimeoutMs / 4)));
    this.#sweeper = setInterval(() => this.#sweep(), every);
    Deno.unrefTimer(Number(this.#sweeper));
  }

  /** The workspaces that count against the server's limit: claimed ones, and those that hold panes. */
  get size(): number {
    return [...this.#leases.values()].filter((lease) => this.#kept(lease)).length;
  }

  /**
   * The lease a call runs under, held until `release`: the handle's (verified against the
   * principal), or a new workspace's when the call brings none.
   */
  async hold(handle: string | undefined, principal: string, client: unknown): Promise<Lease> {
    const lease = handle === undefined ? await this.#mint(principal, client) : await this.#verified(handle, principal);
    if (handle !== undefined) lease.claimed = true;
    lease.active++;
    lease.lastUsed = performance.now();
    return lease;
  }

  release(lease: Lease): void {
    lease.active = Math.max(0, lease.active - 1);
    lease.lastUsed = performance.now();
  }

  /** The lease of a handle if it verifies and lives, else null (resources and completion fall back to ids). */
  async peek(handle: string | undefined, principal: string): Promise<Lease | null> {
    if (handle === undefined) return null;
    return await this.#verified(handle, principal).catch(() => null);
  }

  close(): void {
    clearInterval(this.#sweeper);
    this.#leases.clear(); // the app ends the owners (they are its session owners)
  }

  async #mint(principal: string, client: unknown): Promise<Lease> {
    if (!this.options.room()) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `Cannot open a workspace: the server holds its limit of MCP sessions and workspaces (${this.#leases.size} workspaces)`,
        `Pass your "${WORKSPACE_ARG}" handle from an earlier result, or wait for idle workspaces to end.`,
      );
    }
    const id = this.key.randomId();
    const handle = `${PREFIX}.${this.key.epoch}.${id}.${await this.#mac(id, principal)}`;
    const owner = this.app.newOwner();
    owner.nameAgent(agentOf(client as { name?: unknown; title?: unknown } | undefined));
    const lease: Lease = {
      id,
      handle,
      owner,
      allowed: new Set(),
      active: 0,
      lastUsed: performance.now(),
      claimed: false,
    };
    this.#leases.set(id, lease);
    return lease;
  }

  async #verified(handle: string, principal: string): Promise<Lease> {
    const parts = HANDLE.exec(handle);
    if (parts && parts[1] !== this.key.epoch) throw this.#expired("the server restarted since");
    if (!parts || !this.key.equal(parts[3], await this.#mac(parts[2], principal))) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `The "${WORKSPACE_ARG}" handle is not one this server gave this caller (token and client name)`,
        `Pass the "${WORKSPACE_ARG}" value of an earlier result exactly, or omit it to open a new workspace.`,
      );
    }
    const lease = this.#leases.get(parts[2]);
    if (!lease) throw this.#expired(`it was idle longer than ${Math.round(this.options.idleTimeoutMs / 1000)} s`);
    return lease;
  }

  #expired(why: string): ToolError {
    return new ToolError(
      "WORKSPACE_EXPIRED",
      `The workspace of this handle has ended (${why}): its panes were removed`,
      `Call again without "${WORKSPACE_ARG}" to open a new workspace.`,
    );
  }

  /** Claimed, or holding panes on some host (its session was made). */
  #kept(lease: Lease): boolean {
    if (lease.claimed) return true;
    return this.app.hosts.names().some((host) =>
      lease.owner.hasWorkspaceOn(host) && lease.owner.workspaceOn(host).sessionId !== null
    );
  }

  #mac(id: string, principal: string): Promise<string> {
    return this.key.mac(`workspace\0${this.key.epoch}\0${id}\0${principal}`);
  }

  #sweep(): void {
    const now = performance.now();
    for (const lease of this.#leases.values()) {
      const kept = this.#kept(lease);
      if (lease.active > 0 || now - lease.lastUsed <= (kept ? this.options.idleTimeoutMs : UNCLAIMED_MS)) continue;
      this.#leases.delete(lease.id);
      if (kept) {
        this.options.log(`[tmuxwright] workspace ${lease.id} ended after ${this.options.idleTimeoutMs} ms idle`);
      }
      lease.owner.end().catch((error) =>
        this.options.log(`[tmuxwright] ending workspace ${lease.id} failed: ${error}`)
      );
    }
  }
}
