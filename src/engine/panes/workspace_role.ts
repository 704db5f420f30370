import type { RemoteLogs } from "../output/mod.ts";
import type { PolicyGate } from "../policy/mod.ts";
import type { Launch } from "../integration/mod.ts";

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
  remote?: RemoteRole;
  /** The command policy: a pane's command (and variables that run code) are judged before tmux starts it. */
  gate?: PolicyGate;
}

/** A remote workspace: the link's hub session, the local writer of its panes' logs, and its shells' launcher. */
export interface RemoteRole {
  hubSession: string;
  logs: RemoteLogs;
  shells?: { launch(login: boolean): Promise<Launch | null> };
}
