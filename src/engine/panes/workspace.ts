import type { Config } from "../../config.ts";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import { escapeFormat } from "../../tmux/quote.ts";
import { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import { encodeName, PANE_TEMPLATE, type PaneInfo, parsePanes } from "./panes.ts";
import { ensureLogDir, logPathFor, pipeCommand, pruneLogs, recordLog } from "../output/mod.ts";

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
}

// Holds the new pane's program until its log pipe is attached, so not one byte is missed.
const GATE_SCRIPT = 'tmux wait-for "$1" 2>/dev/null; shift; exec "$@"';
const DEFAULT_SIZE = "200x50";

/**
 * The server's workspace session `tmuxwright-<pid>`: created on first use, home of every
 * owned pane, removed on exit unless --keep. The control connection attaches to it.
 */
export class Workspace {
  readonly sessionName: string;
  readonly tmux: TmuxServer;
  #sessionId: string | null = null;
  #socketPath: string | null = null;
  readonly #owned = new Set<string>();
  #gateCounter = 0;
  #creating: Promise<unknown> = Promise.resolve();
  #reaping: Promise<string[]> | null = null;
  #defaultPane: Promise<unknown> = Promise.resolve();

  constructor(private readonly config: Readonly<Config>) {
    this.sessionName = `tmuxwright-${config.pid}`;
    this.tmux = new TmuxServer(config.socketArgs, () => this.#prepare());
  }

  get sessionId(): string | null {
    return this.#sessionId;
  }

  /** The tmux server's socket path, known once connected (identifies panes in the log registry). */
  get socketPath(): string | null {
    return this.#socketPath;
  }

  /** Whether this server's tmux is the one the server process itself runs inside (from TMUX). */
  get sameServerAsCaller(): boolean {
    const caller = this.config.caller;
    return caller !== null && this.#socketPath !== null && samePath(caller.socketPath, this.#socketPath);
  }

  /** The command a person runs to watch the workspace live. */
  get attachCommand(): string {
    return ["tmux", ...this.config.socketArgs, "attach", "-t", `=${this.sessionName}`].join(" ");
  }

  isOwned(pane: PaneInfo): boolean {
    return this.#owned.has(pane.paneId) || pane.ownerPid === this.config.pid;
  }

  /** The hub pane (window 0 of the workspace) keeps the session alive; nobody may kill it. */
  isHub(pane: PaneInfo): boolean {
    return pane.sessionName === this.sessionName && pane.ownerPid === null;
  }

  /** Creates an owned pane whose output is logged from its first byte. */
  createPane(options: CreatePaneOptions): Promise<{ pane: PaneInfo; logPath: string }> {
    // Serialised so two calls cannot both claim one name.
    const run = this.#creating.then(() => this.#createPane(options));
    this.#creating = run.catch(() => {});
    return run;
  }

  async #createPane(options: CreatePaneOptions): Promise<{ pane: PaneInfo; logPath: string }> {
    if (options.name !== undefined) await this.#assertNameFree(options.name);
    await this.tmux.run("display-message", "-p", "ok"); // connects, creating the workspace if needed
    const channel = `tmuxwright-gate-${this.config.pid}-${++this.#gateCounter}`;
    const shellArgs = [this.config.shell, ...(options.login ? ["-l"] : [])];
    const program = options.command === undefined ? shellArgs : [...shellArgs, "-c", options.command];
    const common = ["-d", "-P", "-F", PANE_TEMPLATE];
    if (options.cwd !== undefined) common.push("-c", escapeFormat(options.cwd));
    for (const [key, value] of Object.entries(options.env ?? {})) common.push("-e", `${key}=${value}`);
    const argv = ["--", "/bin/sh", "-c", GATE_SCRIPT, "tmuxwright-gate", channel, ...program];

    let created: string[];
    if (options.splitFrom) {
      const dir = options.direction ?? "below";
      const flags = [
        dir === "right" || dir === "left" ? "-h" : "-v",
        ...(dir === "left" || dir === "above" ? ["-b"] : []),
      ];
      if (options.size !== undefined) flags.push("-l", `${options.size}%`);
      created = await this.tmux.run("split-window", "-t", options.splitFrom, ...flags, ...common, ...argv);
    } else {
      const windowName = options.name === undefined ? [] : ["-n", escapeFormat(sanitizeTitle(options.name))];
      created = await this.tmux.run("new-window", "-t", `${this.#sessionId}:`, ...windowName, ...common, ...argv);
    }
    const pane = parsePanes(created)[0];
    this.#owned.add(pane.paneId);
    const logPath = logPathFor(this.config.stateDir, this.config.pid, pane.paneId);
    const setups: string[][] = [
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_owner", String(this.config.pid)],
      ["set-option", "-p", "-t", pane.paneId, "@tmuxwright_log", encodeName(logPath)],
      ["set-option", "-p", "-t", pane.paneId, "remain-on-exit", "on"],
      [
        "pipe-pane",
        "-o",
        "-t",
        pane.paneId,
        pipeCommand(logPath, {
          maxBytes: this.config.logMaxBytes,
          keep: this.config.logKeep,
        }),
      ],
    ];
    if (options.name !== undefined) {
      setups.push(["set-option", "-p", "-t", pane.paneId, "@tmuxwright_name", encodeName(options.name)]);
    }
    try {
      await this.tmux.batch(setups);
    } finally {
      await this.tmux.run("wait-for", "-S", channel); // release the gate even if a setup step failed
    }
    await recordLog(this.config.stateDir, {
      pane_id: pane.paneId,
      name: options.name ?? null,
      session: pane.sessionName,
      socket: this.#socketPath,
      owner_pid: this.config.pid,
      created: new Date().toISOString(),
      path: logPath,
    });
    return {
      pane: { ...pane, name: options.name ?? null, ownerPid: this.config.pid, logPath },
      logPath,
    };
  }

  /** The owned pane named `default`, created on first use (and again if it was killed or exited). */
  defaultPane(): Promise<{ pane: PaneInfo; created: boolean }> {
    const run = this.#defaultPane.then(async () => {
      const panes = parsePanes(await this.tmux.run("list-panes", "-a", "-F", PANE_TEMPLATE));
      const found = panes.find((p) => p.name === "default" && p.ownerPid === this.config.pid);
      if (found && !found.dead) return { pane: found, created: false };
      if (found) await this.tmux.run("kill-pane", "-t", found.paneId);
      return { pane: (await this.createPane({ name: "default" })).pane, created: true };
    });
    this.#defaultPane = run.catch(() => {});
    return run;
  }

  async #assertNameFree(name: string): Promise<void> {
    const panes = parsePanes(await this.tmux.run("list-panes", "-a", "-F", PANE_TEMPLATE));
    const holder = panes.find((p) => p.name === name);
    if (holder) {
      throw new ToolError(
        "NAME_IN_USE",
        `Cannot create pane "${name}": the name is already used by pane ${holder.paneId}`,
        "Choose another name, or kill_pane the old one first.",
      );
    }
  }

  /** Creates the workspace session if it does not exist; called before every (re)connect. */
  async #prepare(): Promise<string> {
    await ensureLogDir(this.config.stateDir);
    await this.reapStale(); // a stale workspace's panes would still hold their names
    const base = [...this.config.socketArgs];
    const exists = await tmuxOneShot([...base, "has-session", "-t", `=${this.sessionName}`]);
    if (exists.code !== 0) {
      // Session-level names differ from the pane-level @tmuxwright_owner: formats fall back to session options.
      const sessionOptions = [
        ["@tmuxwright_workspace_pid", String(this.config.pid)],
        ["history-limit", String(this.config.historyLimit)],
        ["default-size", DEFAULT_SIZE],
        ["destroy-unattached", "off"],
      ];
      const banner = `printf 'tmuxwright workspace of process %s\\n' ${this.config.pid}; while :; do sleep 86400; done`;
      const result = await tmuxOneShot([
        ...base,
        ...(this.config.tmuxConfig ? ["-f", this.config.tmuxConfig] : []),
        "new-session",
        "-d",
        "-s",
        this.sessionName,
        "-n",
        "tmuxwright",
        "-x",
        "200",
        "-y",
        "50",
        "/bin/sh",
        "-c",
        banner,
        ...sessionOptions.flatMap(([key, value]) => [";", "set-option", "-t", `=${this.sessionName}:`, key, value]),
      ]);
      if (result.code !== 0) {
        throw new ToolError(
          "TMUX_UNAVAILABLE",
          `Cannot create workspace session "${this.sessionName}": ${result.stderr.trim()}`,
          "Run tmuxwright doctor to check tmux and the socket.",
        );
      }
    }
    const info = await tmuxOneShot([
      ...base,
      "display-message",
      "-p",
      "-t",
      `=${this.sessionName}:`,
      "#{session_id}\x1f#{socket_path}",
    ]);
    const [sessionId, socketPath] = info.stdout.trim().split("\x1f");
    this.#sessionId = sessionId || null;
    this.#socketPath = socketPath || null;
    return this.sessionName;
  }

  /**
   * Removes workspace sessions whose owning process is gone (once per process; later calls share
   * the result). Never touches other sessions.
   */
  reapStale(): Promise<string[]> {
    this.#reaping ??= this.#reapStale().catch(() => []);
    return this.#reaping;
  }

  async #reapStale(): Promise<string[]> {
    // A live server keeps a control-mode client attached to its workspace; when the process dies
    // that client sees EOF and exits. (Deno cannot read /proc without --allow-all, so liveness is
    // judged from tmux's side.) Workspaces kept with --keep are marked and never reaped.
    await pruneLogs(this.config.stateDir, this.config.logRetentionDays)
      .catch((error) => console.error("[tmuxwright] log retention failed:", error));
    const base = this.config.socketArgs;
    const sessions = await tmuxOneShot([...base, "list-sessions", "-F", "#{session_name}\x1f#{@tmuxwright_kept}"]);
    if (sessions.code !== 0) return [];
    const clients = await tmuxOneShot([...base, "list-clients", "-F", "#{client_control_mode}\x1f#{session_name}"]);
    const watched = new Set(
      clients.stdout.split("\n").map((l) => l.split("\x1f")).filter(([control]) => control === "1").map(([, s]) => s),
    );
    const reaped: string[] = [];
    for (const line of sessions.stdout.split("\n")) {
      const [name, kept] = line.split("\x1f");
      if (!/^tmuxwright-\d+$/.test(name ?? "") || name === this.sessionName || kept === "1" || watched.has(name)) {
        continue;
      }
      const killed = await tmuxOneShot([...base, "kill-session", "-t", `=${name}`]);
      if (killed.code === 0) reaped.push(name);
    }
    return reaped;
  }

  /** Removes the workspace (or the whole private server) unless --keep; bounded in time by the caller. */
  async shutdown(): Promise<void> {
    this.tmux.kill();
    if (this.config.keep) {
      if (this.#sessionId !== null) {
        await tmuxOneShot([
          ...this.config.socketArgs,
          "set-option",
          "-t",
          `=${this.sessionName}:`,
          "@tmuxwright_kept",
          "1",
        ]);
      }
      return;
    }
    if (this.config.isolated) {
      await tmuxOneShot([...this.config.socketArgs, "kill-server"]);
    } else if (this.#sessionId !== null) {
      await tmuxOneShot([...this.config.socketArgs, "kill-session", "-t", `=${this.sessionName}`]);
    }
  }
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
