import type { PaneStatus } from "../../engine/watch/mod.ts";

/** A pane's state as every view shows it (see docs/design/links_facts_views.md, "Views"). */
export type WatchStatus = PaneStatus;

/** What the watch page shows of a pane. */
export interface WatchPane extends WatchStatus {
  /** `%N` on this machine, `NAME:%N` on a remote host (as the tools write it). */
  pane_id: string;
  /** "local" or the configured name of the remote host. */
  host: string;
  name: string | null;
  /** The MCP client whose call created the pane (`clientInfo` name, and title where given). */
  agent: { name: string; title: string | null } | null;
  session: string;
  window_index: number;
  /** The tmuxwright workspace the pane belongs to, or null for a person's own pane. */
  workspace: string | null;
  title: string;
  width: number;
  height: number;
}

/** A remote host's link as the page shows it (this machine is always there). */
export interface WatchHost {
  host: string;
  state: "idle" | "connected" | "reconnecting" | "unreachable";
  /** When the link went down (ISO 8601), while it is down. */
  since?: string;
  reason?: string;
}

/** A command policy question that awaits the person (in the MCP client that made the call). */
export interface WatchQuestion {
  /** The pane typed into, as the page names it; null for a pane about to be created. */
  pane_id: string | null;
  host: string;
  command: string;
  tool: string;
  agent: string | null;
  /** When it was asked (epoch ms). */
  since: number;
}

/** The visible screen as it is now: each row with its colours (SGR sequences), and the cursor. */
export interface WatchScreen {
  cols: number;
  rows: number;
  lines: string[];
  cursorX: number;
  cursorY: number;
}

export interface WatchFollow {
  close(): void;
}

/** A cheap sign that a pane wrote: `version()` changes whenever it did. */
export interface WatchMark {
  version(): Promise<number>;
  close(): void;
}

/** Read-only access to panes for /watch: nothing here sends anything to a pane. */
export interface WatchBackend {
  /**
   * Every host's panes with what tmux alone tells of their state (exited, or the command in
   * front): this machine's now, each remote host's as last fetched (never waiting on a host).
   */
  panes(): Promise<WatchPane[]>;
  /** Each remote host's link state. */
  hosts(): WatchHost[];
  /** Called when panes appear, exit or vanish, or a host's link changes; returns the unsubscribe. */
  onPanesChanged(listener: () => void): () => void;
  /** The policy questions awaiting a person now, and a listener for when they change. */
  questions(): WatchQuestion[];
  onQuestions(listener: () => void): () => void;
  /** The pane's state from its process facts (as pane_state reads them); null when it cannot be read. */
  probe(paneId: string, question: boolean): Promise<WatchStatus | null>;
  /** The pane's current screen, or null when there is no such pane. */
  screen(paneId: string): Promise<WatchScreen | null>;
  /** A cheap sign of the pane's output (its log's size, its link's `%output`); null: compare screens instead. */
  mark(paneId: string): Promise<WatchMark | null>;
  /**
   * Every byte the pane writes from now on; or, for a pane whose bytes cannot be had (a remote
   * pane outside the link's session), `onRedraw` whenever its screen changed.
   */
  follow(paneId: string, onBytes: (bytes: Uint8Array) => void, onRedraw: () => void): Promise<WatchFollow | null>;
}
