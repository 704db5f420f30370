import type { App } from "../app.ts";
import { listPanes, type PaneInfo } from "../engine/panes/mod.ts";
import { paneStatus } from "../engine/watch/mod.ts";
import type { WatchHost, WatchPane } from "../http/watch/backend.ts";

/** A host's pane list that takes longer than this is given up (the host is shown as it stands). */
export const FETCH_MS = 3000;
/** While someone watches, a host that is not connected is tried again this often (its backoff still applies). */
const RETRY_MS = 5000;

interface HostEntry {
  panes: WatchPane[];
  /** tmux's facts of each pane, by its page id (`NAME:%N`). */
  infos: Map<string, PaneInfo>;
  fetching: boolean;
  again: boolean;
}

/**
 * Every remote host's panes as last seen, fetched in the background, one bounded fetch per host
 * at a time: a slow or dead host never holds the page, the local list or another host. The
 * listener hears of a host whose panes or link state changed.
 */
export class WatchFleet {
  readonly #entries = new Map<string, HostEntry>();
  readonly #listeners = new Set<() => void>();
  readonly #stops: (() => void)[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly app: App) {
    for (const host of this.remoteHosts()) {
      this.#entries.set(host, { panes: [], infos: new Map(), fetching: false, again: false });
      this.#stops.push(
        app.hosts.link(host).onStatus((status) => {
          if (status.kind === "slow") return;
          this.#changed();
          this.refresh(host);
        }),
      );
    }
    // Each host's pane-set watch (the app's, on its link) names the host that changed.
    this.#stops.push(app.events.subscribe((event) => {
      if (event.kind === "panes-changed" && event.host !== undefined) this.refresh(event.host);
    }));
  }

  remoteHosts(): string[] {
    return this.app.hosts.names().slice(1);
  }

  /** The remote hosts' panes as last fetched (fetching each host that is due). */
  panes(): WatchPane[] {
    return this.remoteHosts().flatMap((host) => this.#entries.get(host)!.panes);
  }

  /** tmux's facts of a remote pane (`NAME:%N`) as last fetched. */
  info(paneId: string): PaneInfo | null {
    const host = paneId.slice(0, paneId.lastIndexOf(":"));
    return this.#entries.get(host)?.infos.get(paneId) ?? null;
  }

  hosts(): WatchHost[] {
    return this.remoteHosts().map((host) => {
      const link = this.app.hosts.link(host).linkState;
      return {
        host,
        state: link.state,
        ...(link.since ? { since: link.since.toISOString() } : {}),
        ...(link.reason ? { reason: link.reason.slice(0, 200) } : {}),
      };
    });
  }

  /** Fetches every remote host's panes again (each in the background, bounded). */
  refreshAll(): void {
    for (const host of this.remoteHosts()) this.refresh(host);
  }

  refresh(host: string): void {
    const entry = this.#entries.get(host);
    if (!entry) return;
    if (entry.fetching) return void (entry.again = true);
    entry.fetching = true;
    void this.#fetch(host, entry);
  }

  /** Called when any host's panes or state change; the first listener starts the fetches. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) {
      this.refreshAll();
      this.#timer = setInterval(() => {
        for (const host of this.remoteHosts()) {
          if (!this.app.hosts.link(host).connected) this.refresh(host);
        }
      }, RETRY_MS);
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) clearInterval(this.#timer);
    };
  }

  close(): void {
    clearInterval(this.#timer);
    this.#stops.forEach((stop) => stop());
    this.#listeners.clear();
  }

  async #fetch(host: string, entry: HostEntry): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const late = new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error("slow")), FETCH_MS));
      const link = this.app.hosts.link(host);
      const panes = await Promise.race([listPanes(link), late]);
      const shown = panes.filter((p) => !p.hub);
      entry.infos = new Map(shown.map((p) => [`${host}:${p.paneId}`, p]));
      const next = shown.map((p) => watchPane(p, host));
      if (JSON.stringify(next) !== JSON.stringify(entry.panes)) {
        entry.panes = next;
        this.#changed();
      }
    } catch { /* the host's state says why; its last panes stay listed under it */ }
    clearTimeout(timer);
    entry.fetching = false;
    if (entry.again) {
      entry.again = false;
      this.refresh(host);
    }
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

/**
 * A pane as the page lists it, with what tmux alone tells of its state (the wall refines it from
 * the process facts); a remote pane's id carries its host (`NAME:%N`), as the tools write it.
 */
export function watchPane(p: PaneInfo, host: string): WatchPane {
  return {
    pane_id: host === "local" ? p.paneId : `${host}:${p.paneId}`,
    host,
    name: p.name,
    agent: p.agent,
    session: p.sessionName,
    window_index: p.windowIndex,
    workspace: p.workspace,
    title: p.title,
    ...paneStatus(p, null),
    width: p.width,
    height: p.height,
  };
}
