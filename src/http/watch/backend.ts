/** What the watch page shows of a pane. */
export interface WatchPane {
  /** `%N` on this machine, `NAME:%N` on a remote host (as the tools write it). */
  pane_id: string;
  /** "local" or the configured name of the remote host. */
  host: string;
  name: string | null;
  session: string;
  window_index: number;
  /** The tmuxwright workspace the pane belongs to, or null for a person's own pane. */
  workspace: string | null;
  command: string;
  title: string;
  status: "running" | "exited";
  exit_code?: number;
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

/** The screen as it is now, as terminal output: rows joined by CR LF, then the cursor placed. */
export interface WatchScreen {
  cols: number;
  rows: number;
  text: string;
}

export interface WatchFollow {
  close(): void;
}

/** Read-only access to panes for /watch: nothing here sends anything to a pane. */
export interface WatchBackend {
  /** Every host's panes: this machine's now, each remote host's as last fetched (never waiting on a host). */
  panes(): Promise<WatchPane[]>;
  /** Each remote host's link state. */
  hosts(): WatchHost[];
  /** Called when panes appear, exit or vanish, or a host's link changes; returns the unsubscribe. */
  onPanesChanged(listener: () => void): () => void;
  /** The pane's current screen, or null when there is no such pane. */
  screen(paneId: string): Promise<WatchScreen | null>;
  /**
   * Every byte the pane writes from now on; or, for a pane whose bytes cannot be had (a remote
   * pane outside the link's session), `onRedraw` whenever its screen changed.
   */
  follow(paneId: string, onBytes: (bytes: Uint8Array) => void, onRedraw: () => void): Promise<WatchFollow | null>;
}
