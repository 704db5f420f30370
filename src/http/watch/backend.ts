/** What the watch page shows of a pane. */
export interface WatchPane {
  pane_id: string;
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
  panes(): Promise<WatchPane[]>;
  /** Called when panes appear, exit or vanish; returns the unsubscribe. */
  onPanesChanged(listener: () => void): () => void;
  /** The pane's current screen, or null when there is no such pane. */
  screen(paneId: string): Promise<WatchScreen | null>;
  /** Every byte the pane writes from now on. */
  follow(paneId: string, onBytes: (bytes: Uint8Array) => void): Promise<WatchFollow | null>;
}
