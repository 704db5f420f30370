import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import { listPanes, PANE_TEMPLATE, type PaneInfo, queryPanes } from "./panes.ts";
import type { RecentPanes } from "./recent_panes.ts";

const PANE_ID = /^%\d{1,9}$/;
/** The tmux server's notes of what tmuxwright's kill tools removed (written by src/engine/watch/removals.ts). */
export const REMOVED_OPTION = "@tmuxwright_removed";

export function isPaneId(ref: string): boolean {
  return PANE_ID.test(ref);
}

/**
 * Resolves what an agent passes as `pane_id`: a tmux id `%N` (any pane on the tmux server) or a
 * name given at creation, looked up among the panes of the caller's workspace only (`instance`):
 * names belong to the server that created them. Unknown names are errors that list the caller's names.
 */
export async function resolvePane(
  tmux: TmuxServer,
  ref: string,
  instance: string,
  hints?: PaneNameHints,
  /** A lookup this link answered may stand while nothing changed there (a remote host's warm pane: no round trip). */
  options: { recent?: boolean } = {},
): Promise<PaneInfo> {
  const recent = options.recent ? hints?.recent : undefined;
  if (PANE_ID.test(ref)) {
    const pane = recent?.get(ref) ?? await paneById(tmux, ref, recent);
    if (!pane) {
      const [panes, removed] = await Promise.all([
        listPanes(tmux),
        tmux.restartedAt ? tmux.run("show-options", "-sv", REMOVED_OPTION).catch(() => []) : [],
      ]);
      const restart = givenSince(ref, panes, removed.join(" ")) ? null : restartBefore(tmux, hints?.madeAt(ref));
      if (restart) throw goneWithServer(tmux, ref, restart);
      throw notFound(ref, panes, instance, tmux.restartedAt ? tmux : null);
    }
    // A pane this owner made, whose id now names another pane: its tmux server was restarted.
    if (hints?.replaced(pane)) throw goneWithServer(tmux, ref, tmux.restartedAt);
    return pane;
  }
  if (/^[%@$]/.test(ref)) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Invalid pane_id ${JSON.stringify(ref)}: ids look like %3`,
      "Use list_panes to see pane ids and names.",
    );
  }
  const known = hints?.has(ref) ?? false;
  const hinted = await hints?.check(tmux, ref, instance, recent);
  if (hinted) return hinted;
  const panes = await listPanes(tmux);
  // Asked once tmux has answered: a restart the link found on this very lookup counts.
  const restart = restartBefore(tmux, hints?.namedAt(ref));
  const matches = panes.filter((p) => p.name === ref && p.instance === instance);
  if (matches.length === 1) return hints?.remember(matches[0]) ?? matches[0];
  if (matches.length > 1) {
    throw new ToolError(
      "AMBIGUOUS_TARGET",
      `Pane name ${JSON.stringify(ref)} is ambiguous: ${matches.map((p) => p.paneId).join(", ")}`,
      "Pass one of these pane ids instead.",
    );
  }
  if (known && restart) throw goneWithServer(tmux, ref, restart);
  throw notFound(ref, panes, instance, tmux.restartedAt ? tmux : null);
}

/**
 * Whether the tmux server, since it (re)started, gave pane id `ref` to a pane that has gone since:
 * a tmuxwright kill noted it (`@tmuxwright_removed`, src/engine/watch/removals.ts), or a live pane
 * has a higher id (tmux numbers panes up from %0 and never gives an id twice).
 */
function givenSince(ref: string, panes: PaneInfo[], removed: string): boolean {
  if (removed.split(" ").some((note) => note.startsWith(`${ref}=`))) return true;
  return panes.some((p) => Number(p.paneId.slice(1)) > Number(ref.slice(1)));
}

/**
 * When the tmux server was restarted, if a pane made at `made` (epoch ms; undefined: not by this
 * owner) may have gone with it: not one this owner made since (one killed since is just not found).
 */
function restartBefore(tmux: TmuxServer, made: number | undefined): Date | null {
  const at = tmux.restartedAt;
  if (at === null) return null;
  return made !== undefined && made > at.getTime() ? null : at;
}

/**
 * Where an owner's names were last found. Resolving a name lists every pane on the server, which
 * costs tmux time in proportion to all panes of all workspaces (with 64 HTTP sessions it bounded
 * throughput); a hint is checked with one lookup by id instead, and the listing is the fallback.
 */
export class PaneNameHints {
  readonly #ids = new Map<string, string>();
  /** The log of each pane this owner made (by id), and when: a pane that has the id but not the log is another. */
  readonly #logs = new Map<string, { log: string; at: number }>();
  /** When this owner last made a pane of each name (epoch ms). */
  readonly #named = new Map<string, number>();

  /** On a remote link: its recent lookups (see RecentPanes). */
  constructor(readonly recent?: RecentPanes) {}

  /** Whether this owner's name was found before (a pane of that name existed). */
  has(name: string): boolean {
    return this.#ids.has(name);
  }

  /** The pane a hint names, if it still carries that name for this owner (and is not exited). */
  async check(tmux: TmuxServer, name: string, instance: string, recent?: RecentPanes): Promise<PaneInfo | null> {
    const id = this.#ids.get(name);
    if (id === undefined) return null;
    const pane = recent?.get(id) ?? await paneById(tmux, id, recent);
    if (pane && pane.name === name && pane.instance === instance && !pane.dead) return pane;
    this.#ids.delete(name);
    return null;
  }

  /** A pane this owner made: its id stays its own only while the pane with that id has its log. */
  made(pane: PaneInfo): void {
    this.remember(pane);
    if (pane.name !== null) {
      if (this.#named.size >= 1024) this.#named.delete(this.#named.keys().next().value!); // the oldest
      this.#named.set(pane.name, Date.now());
    }
    if (pane.logPath === null) return;
    if (this.#logs.size >= 1024) this.#logs.delete(this.#logs.keys().next().value!); // the oldest
    this.#logs.set(pane.paneId, { log: pane.logPath, at: Date.now() });
  }

  /** Whether `pane` holds the id of a pane this owner made, and is not that pane (made since by another). */
  replaced(pane: PaneInfo): boolean {
    const made = this.#logs.get(pane.paneId);
    return made !== undefined && pane.logPath !== made.log;
  }

  /** When this owner made the pane `id` (epoch ms), if it did. */
  madeAt(id: string): number | undefined {
    return this.#logs.get(id)?.at;
  }

  /** When this owner last made a pane named `name` (epoch ms), if it did. */
  namedAt(name: string): number | undefined {
    return this.#named.get(name);
  }

  remember(pane: PaneInfo): PaneInfo {
    if (pane.name !== null) this.#ids.set(pane.name, pane.paneId);
    return pane;
  }
}

export async function paneById(tmux: TmuxServer, id: string, recent?: RecentPanes): Promise<PaneInfo | null> {
  try {
    // tmux 3.3 answers display-message for a missing pane with empty fields, not an error.
    const pane = (await queryPanes(tmux, ["display-message", "-p", "-t", id, PANE_TEMPLATE]))[0];
    if (pane?.paneId !== id) return null;
    recent?.remember(pane);
    return pane;
  } catch (error) {
    if ((error as { kind?: string }).kind === "target_gone") return null;
    throw error;
  }
}

/**
 * A pane the host's tmux server no longer has, after that server was restarted (`at`; null: seen
 * only by its id naming another pane now): its panes went with it.
 */
function goneWithServer(tmux: TmuxServer, ref: string, at: Date | null): ToolError {
  const when = at === null ? "" : ` at ${clock(at)}`;
  return new ToolError(
    "PANE_GONE",
    `Pane ${JSON.stringify(ref)} is gone: the tmux server of host ${tmux.host} was restarted${when} ` +
      "(the host or its container restarted, or tmux was killed) and its panes ended with it" +
      (at === null ? `; ${ref} now names another pane` : ""),
    `Create a new pane there (create_pane host=${tmux.host}); read_logs keeps the old pane's output.`,
  );
}

function notFound(ref: string, panes: PaneInfo[], instance: string, restarted: TmuxServer | null = null): ToolError {
  const own = panes.filter((p) => p.instance === instance && p.name !== null);
  const named = own.map((p) => `${JSON.stringify(p.name)} (${p.paneId})`);
  const known = named.length > 0 ? ` Named panes: ${named.slice(0, 20).join(", ")}.` : "";
  const elsewhere = panes.find((p) => p.name === ref && p.instance !== instance);
  if (elsewhere) {
    const where = elsewhere.workspace === null ? "" : ` of workspace ${JSON.stringify(elsewhere.workspace)}`;
    return new ToolError(
      "PANE_NOT_FOUND",
      `Pane ${JSON.stringify(ref)} not found among this server's panes: pane ${elsewhere.paneId}${where}, ` +
        `another tmuxwright server's, has that name.${known}`,
      `Names belong to the server that created the pane: pass "${elsewhere.paneId}" to target that pane.`,
    );
  }
  const restart = restarted?.restartedAt
    ? ` The tmux server of host ${restarted.host} was restarted at ${clock(restarted.restartedAt)}: ` +
      "panes from before are gone."
    : "";
  return new ToolError(
    "PANE_NOT_FOUND",
    `Pane ${JSON.stringify(ref)} not found.${known}${restart}`,
    "Use list_panes to see active panes.",
  );
}

function clock(at: Date): string {
  return `${at.toISOString().slice(11, 19)} UTC`;
}
