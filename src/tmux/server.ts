import { ControlClient, type ControlHandlers } from "./control.ts";
import { tmuxOneShotChecked } from "./oneshot.ts";
import { classifyTmuxError, TmuxError } from "./errors.ts";
import { HostError, remoteControlScript, unreachable } from "./ssh.ts";
import {
  classifyLinkFailure,
  linkCommand,
  linkConnectMs,
  type LinkSpec,
  missingLinkProgram,
  silentDropIsUnsent,
} from "./link_command.ts";
import { parseShellResult, type ShellResult, shellScriptCommands } from "./run_shell.ts";
import { Backoff } from "./backoff.ts";
import { tmuxWords, underHostLock } from "./host_session_lock.ts";
import { notifiesEveryClient } from "./notifying.ts";
import { adaptCommand, type TmuxDialect, UNPROBED } from "./dialect.ts";
import { unvis } from "./printed.ts";
import { markNewWindow, resizeCommands, takeMarks } from "./window_size.ts";

/** What happened to the connection, for the server's log: (re)connects, losses, slow commands. */
export type TmuxStatus =
  | { kind: "connected"; reconnect: boolean; restarted?: true }
  | { kind: "lost"; reason: string }
  | { kind: "failed"; reason: string }
  | { kind: "slow"; command: string; ms: number };

/**
 * Where a link stands, for a person looking at the fleet: `idle` (never dialled), `connected`,
 * `reconnecting` (lost, not yet failed to come back), `unreachable` (a connect failed), with the
 * moment it went down.
 */
export interface LinkState {
  state: "idle" | "connected" | "reconnecting" | "unreachable";
  since: Date | null;
  reason: string | null;
}

/** A guarded step on a host waits this long for the host's lock (20 ms tries): 10 s. */
const GUARDED_TRIES = 500;
/** How a guarded step's script marks the output of the command tmux refused. */
const FAILED = "tw-failed ";

/** Commands that can notify every control client go only through `guarded` (src/tmux/notifying.ts). */
function unguardedOnly(commands: readonly (readonly string[])[]): void {
  const notifying = commands.find(notifiesEveryClient);
  if (notifying) {
    throw new Error(`internal: tmux ${notifying[0]} can crash tmux 3.3a unless sent through TmuxServer.guarded()`);
  }
}

/** A command on the control connection normally answers in well under a millisecond. */
export const SLOW_COMMAND_MS = 500;
/** A local command unanswered this long has stuck the connection, which is then replaced. */
export const STALLED_COMMAND_MS = 15_000;

/** How long close() lets a local connect under way finish (one takes ~20 ms) before it closes what is there. */
const CLOSE_WAIT_MS = 1000;

/**
 * One tmux server (one socket): a lazily opened, persistent control connection plus the
 * one-shot path. If tmux exits or the connection breaks, in-flight calls fail and the next
 * call reconnects (running `prepare` again, which recreates the session to attach to).
 *
 * With `remote`, the server is on another host and the connection is `ssh … tmux -u -C`, or
 * `podman|docker exec -i CONTAINER …` (a host link, link_command.ts): one-shots and `runShell` go
 * through that one connection (no second ssh per call), failures are HostErrors naming the host,
 * and reconnects back off while the host fails.
 */
export class TmuxServer {
  #client: ControlClient | null = null;
  #connecting: Promise<ControlClient> | null = null;
  readonly #notificationListeners = new Set<(name: string, args: string) => void>();
  readonly #outputListeners = new Set<(paneId: string, bytes: Uint8Array) => void>();
  readonly #statusListeners = new Set<(status: TmuxStatus) => void>();
  readonly #sendListeners = new Set<(commands: readonly (readonly string[])[]) => void>();
  #connections = 0;
  #guardedTail: Promise<unknown> = Promise.resolve();
  #closed = false;
  #shellRuns = 0;
  readonly #backoff = new Backoff();
  #lastFailure: HostError | null = null;
  #downSince: Date | null = null;
  #downReason: string | null = null;
  #serverIdentity: string | null = null;
  #restartedAt: Date | null = null;
  #heard = 0;
  /** Names this link's paste buffers apart from other tmuxwright servers using the same tmux server. */
  readonly #tag = [...crypto.getRandomValues(new Uint8Array(4))].map((b) => b.toString(16).padStart(2, "0")).join("");

  constructor(
    readonly socketArgs: readonly string[],
    /** Makes sure the session to attach to exists; returns its name (remote: the script creates it). */
    private readonly prepare: () => Promise<string>,
    /**
     * A directory of the state directory for this machine's control clients: they run behind the
     * link script (src/tmux/local_link.ts), and guarded steps take the tmux server's session lock.
     * null: a private tmux server or the tmux layer's own tests (no lock, clients as children).
     */
    readonly relayRoot: string | null = null,
    /** The host this server is on, reached over ssh or a container runtime; undefined: this machine. */
    readonly remote?: LinkSpec,
  ) {}

  /** "local", or the configured name of the remote host. */
  get host(): string {
    return this.remote?.host ?? "local";
  }

  /** How long tmux has left the oldest command on the control connection unanswered (0: none waits). */
  get unansweredMs(): number {
    return this.#client?.unansweredMs ?? 0;
  }

  /** Whether the control connection is open now (a remote link: up). */
  get connected(): boolean {
    return this.#client?.isOpen ?? false;
  }

  /** Where the link stands now (see LinkState). */
  get linkState(): LinkState {
    if (this.connected) return { state: "connected", since: null, reason: null };
    if (this.#downSince === null) return { state: "idle", since: null, reason: null };
    const state = this.#lastFailure ? "unreachable" : "reconnecting";
    return { state, since: this.#downSince, reason: this.#downReason };
  }

  /**
   * A remote link: when it last found another tmux server than before (the host's was restarted,
   * a container restarted), whose panes are gone with it; null: the same server throughout.
   */
  get restartedAt(): Date | null {
    return this.#restartedAt;
  }

  /** How many reads the control connections have had: unchanged over a call, the call heard nothing back. */
  get heard(): number {
    return this.#heard;
  }

  /**
   * Whether a drop of this link, with nothing heard since a call wrote, means the call reached no
   * live tmux server (src/tmux/link_command.ts, silentDropIsUnsent): then it may run again.
   */
  get silentDropIsUnsent(): boolean {
    return this.remote !== undefined && silentDropIsUnsent(this.remote);
  }

  /** How many times the control connection was opened: what was set up on the other side is per connection. */
  get connections(): number {
    return this.#connections;
  }

  /**
   * What this tmux server does differently from other releases, as its control connection's
   * probes found (src/tmux/dialect.ts); connects first when it is not open.
   */
  async dialect(): Promise<TmuxDialect> {
    return (await this.#connection()).dialect;
  }

  /** The dialect as known now, without connecting (UNPROBED before the first connection). */
  get knownDialect(): TmuxDialect {
    return this.#client?.dialect ?? UNPROBED;
  }

  /** Opens the control connection now (a remote link: connects, or throws why it cannot). */
  async connect(): Promise<void> {
    await this.#connection();
  }

  /** Runs one command on the control connection. */
  async run(...args: string[]): Promise<string[]> {
    unguardedOnly([args]);
    const client = await this.#connection();
    this.#sendListeners.forEach((l) => l([args]));
    const marked = markNewWindow(client.dialect, args);
    const lines = await this.#timed(client, marked ?? args);
    return marked ? await this.#sized(lines) : lines;
  }

  /** Runs several commands pipelined in one write; resolves when all replied (rejects on the first error). */
  async batch(commands: readonly string[][]): Promise<string[][]> {
    const settled = await Promise.allSettled(await this.pipeline(commands));
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return settled.map((s) => (s as PromiseFulfilledResult<string[]>).value);
  }

  /**
   * Runs several commands pipelined in one write; one reply per command, each settling as it arrives.
   * `onReply[i]` runs as command i's reply is read, in order with `%output` (see ControlClient.runMany).
   */
  async pipeline(
    commands: readonly string[][],
    onReply: readonly ((() => void) | undefined)[] = [],
  ): Promise<Promise<string[]>[]> {
    unguardedOnly(commands);
    const client = await this.#connection();
    this.#sendListeners.forEach((l) => l(commands));
    const started = performance.now();
    const marked = commands.map((command) => markNewWindow(client.dialect, command));
    return client.runMany(marked.map((m, i) => m ?? commands[i]), onReply).map((reply, i) => {
      const timed = this.#timedReply(reply, commands[i], started);
      return marked[i] ? timed.then((lines) => this.#sized(lines)) : timed;
    });
  }

  /** A reply without its new windows' marks, once those windows have their size (src/tmux/window_size.ts). */
  async #sized(lines: string[]): Promise<string[]> {
    const { lines: rest, windows } = takeMarks(lines);
    if (windows.length > 0) await this.batch(windows.flatMap(resizeCommands)).catch(() => {}); // a window gone meanwhile
    return rest;
  }

  /**
   * A separate tmux process: for start-up, shutdown and anything that must not block the connection.
   * A remote host has no second process (that would be a second ssh): the commands (`;`-separated
   * argument lists, as for tmux's argv) run on the control connection and their output is joined.
   * Commands that block (`wait-for`) cannot run remotely.
   */
  async oneShot(...args: string[]): Promise<string> {
    if (!this.remote) return tmuxOneShotChecked([...this.socketArgs, ...args]);
    const commands: string[][] = [[]];
    for (const arg of args) arg === ";" ? commands.push([]) : commands.at(-1)!.push(arg);
    if (commands.some((c) => c[0] === "wait-for")) throw new RangeError("wait-for blocks a remote host's connection");
    const replies = await this.batch(commands.filter((c) => c.length > 0));
    return replies.flat().map((line) => `${line}\n`).join("");
  }

  /**
   * Runs a POSIX sh script where the tmux server runs (tmux's run-shell: on a remote host, on that
   * host) and returns its stdout and exit status; stderr is discarded. The script may not use
   * `%`, and every `#` is taken literally. Locally one extra tmux process; remotely one pipelined
   * round trip on the link, which waits for the script (keep it short: later calls queue behind it).
   */
  async runShell(script: string): Promise<ShellResult> {
    const commands = shellScriptCommands(script, `tmuxwright-sh-${this.#tag}-${++this.#shellRuns}`);
    if (!this.remote) {
      return parseShellResult(
        await tmuxOneShotChecked([...this.socketArgs, ...commands.flatMap((c) => [";", ...c]).slice(1)]),
      );
    }
    const [, shown] = await this.batch(commands);
    return parseShellResult(shown.map((line) => `${line}\n`).join(""));
  }

  /**
   * Runs commands that can notify every control client (src/tmux/notifying.ts) as one step under
   * the session lock every control client's attach takes: locally the state directory's guard,
   * on a host the host's lock (one run-shell script, one round trip). Resolves with their output
   * lines; a command tmux refuses rejects as `run` would, and the rest are not run.
   */
  guarded(commands: readonly string[][]): Promise<string[]> {
    if (commands.length === 0) return Promise.resolve([]);
    if (!this.remote && this.relayRoot === null) return this.#unchecked(commands).then((replies) => replies.flat());
    // One at a time from this process: many waiters polling the lock at once slow its holder down.
    const step = this.#guardedTail.then(() => this.#underLock(commands));
    this.#guardedTail = step.catch(() => {});
    return step;
  }

  async #underLock(commands: readonly string[][]): Promise<string[]> {
    // Run by a tmux client of the server's own version, whichever it is: formats read the same on all.
    const marked = commands.map((command) => markNewWindow(this.knownDialect, command) ?? command);
    const adapted = marked.map((command) => adaptCommand("unknown", command));
    const words = tmuxWords(adapted.map((a) => a.command));
    // printf, not echo: dash's echo reads backslashes in what tmux printed as escapes.
    const body = `P=$(printf '\\045'); o=$(${words} 2>&1) || { printf "$P"'s\\n' "${FAILED}$o"; exit 1; }; ` +
      `printf "$P"'s\\n' "$o"`;
    const result = await this.runShell(underHostLock(body, GUARDED_TRIES));
    const lines = result.stdout.split("\n").filter((line, i, all) => line !== "" || i < all.length - 1);
    if (result.status === 75) {
      const where = this.remote ? `on host "${this.host}"` : "of this tmux server";
      throw new TmuxError("command_failed", `the session lock ${where} stayed taken for 10 s`);
    }
    const failed = lines.findIndex((line) => line.startsWith(FAILED));
    if (failed >= 0) throw classifyTmuxError(lines.slice(failed).join("\n").slice(FAILED.length));
    if (result.status !== 0) throw new TmuxError("command_failed", `guarded step ended with status ${result.status}`);
    return await this.#sized(adapted.some((a) => a.unescape) ? lines.map(unvis) : lines);
  }

  async #unchecked(commands: readonly string[][]): Promise<string[][]> {
    const client = await this.#connection();
    this.#sendListeners.forEach((l) => l(commands));
    const started = performance.now();
    const marked = commands.map((command) => markNewWindow(client.dialect, command) ?? command);
    const settled = await Promise.allSettled(
      client.runMany(marked).map((reply, i) =>
        this.#timedReply(reply, commands[i], started).then((l) => this.#sized(l))
      ),
    );
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return settled.map((s) => (s as PromiseFulfilledResult<string[]>).value);
  }

  onNotification(listener: (name: string, args: string) => void): () => void {
    this.#notificationListeners.add(listener);
    return () => this.#notificationListeners.delete(listener);
  }

  /** `%output` of the panes in the attached session; a remote link only (a local one attaches with no-output). */
  onOutput(listener: (paneId: string, bytes: Uint8Array) => void): () => void {
    this.#outputListeners.add(listener);
    return () => this.#outputListeners.delete(listener);
  }

  /** Connects, reconnects, losses of the connection and slow commands, as they happen. */
  /** Each command written on the control connection, as it goes (what it may change is the listener's to judge). */
  onSend(listener: (commands: readonly (readonly string[])[]) => void): () => void {
    this.#sendListeners.add(listener);
    return () => this.#sendListeners.delete(listener);
  }

  onStatus(listener: (status: TmuxStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    // A local connect under way ends first (briefly), so the session its prepare made is there for
    // the workspace's end to remove. A host's is not waited for: its lease ends what it made there.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pending = this.remote ? undefined : this.#connecting?.then(() => {}, () => {});
    if (pending) await Promise.race([pending, new Promise((resolve) => timer = setTimeout(resolve, CLOSE_WAIT_MS))]);
    clearTimeout(timer);
    const client = this.#client;
    this.#client = null;
    if (!client) return;
    // A client that cannot say goodbye (a black-holed link) is ended after a moment; its link
    // script ends it under the session lock either way (src/tmux/host_session_lock.ts).
    await client.closeWithin(2000);
  }

  kill(): void {
    this.#client?.kill();
    this.#client = null;
  }

  #connection(): Promise<ControlClient> {
    if (this.#client?.isOpen) return Promise.resolve(this.#client);
    if (this.#closed) {
      // A call still running as the process ends must not connect again: the link's prepare would
      // make the workspace's session anew after its end had removed it, and leave it behind.
      return Promise.reject(closedError());
    }
    this.#connecting ??= this.#connect().finally(() => this.#connecting = null);
    return this.#connecting;
  }

  async #connect(): Promise<ControlClient> {
    if (this.remote) {
      const wait = this.#backoff.remainingMs();
      const last = this.#lastFailure;
      if (wait > 0 && last) {
        // The same failure again (a changed key stays HOST_KEY_CHANGED), without starting ssh.
        throw new HostError(
          last.failure,
          last.host,
          `${last.message}; next attempt in ${Math.ceil(wait)} ms`,
          last.hint,
        );
      }
    }
    const session = await this.prepare();
    let mine: ControlClient | null = null;
    const handlers: ControlHandlers = {
      notification: (name, args) => this.#notificationListeners.forEach((l) => l(name, args)),
      // Only a remote link attaches with output on (its panes' logs are written from it).
      output: (paneId, bytes) => this.#outputListeners.forEach((l) => l(paneId, bytes)),
      heard: () => void this.#heard++,
      closed: (reason) => {
        // Only the connection in use: one that kill() or close() ended is no news.
        if (mine === null || this.#client !== mine) return;
        this.#downSince ??= new Date();
        this.#downReason = reason;
        this.#status({ kind: "lost", reason });
      },
      // Locally every command answers at once (blocking ones run as separate clients); a link's
      // scripts take what they take, and ssh's keep-alives notice a dead host.
      ...(this.remote ? {} : { stallMs: STALLED_COMMAND_MS }),
    };
    this.#client =
      await (this.remote
        ? this.#connectRemote(this.remote, session, handlers)
        : ControlClient.connect(this.socketArgs, session, handlers, this.relayRoot));
    if (this.#closed) {
      // Closed while this connect ran past close()'s wait: the connection is not kept.
      const late = this.#client;
      this.#client = null;
      late.kill();
      throw closedError();
    }
    mine = this.#client;
    this.#downSince = null;
    this.#downReason = null;
    const identity = this.#client.serverIdentity;
    const restarted = this.remote !== undefined && this.#serverIdentity !== null && identity !== this.#serverIdentity;
    if (restarted) this.#restartedAt = new Date();
    this.#serverIdentity = identity;
    this.#status({ kind: "connected", reconnect: this.#connections++ > 0, ...(restarted ? { restarted } : {}) });
    return this.#client;
  }

  async #connectRemote(target: LinkSpec, session: string, handlers: ControlHandlers): Promise<ControlClient> {
    try {
      const client = await ControlClient.launch({
        ...linkCommand(target, remoteControlScript(session)),
        keepStderr: true,
        timeoutMs: linkConnectMs(target),
        failure: (stderr, code, cause) => classifyLinkFailure(target, stderr || cause.message, code),
      }, handlers);
      this.#backoff.succeeded();
      this.#lastFailure = null;
      return client;
    } catch (error) {
      this.#lastFailure = error instanceof HostError
        ? error
        : error instanceof Deno.errors.NotFound
        ? missingLinkProgram(target)
        : unreachable(target.host, target.destination, (error as Error).message);
      this.#backoff.failed();
      this.#downSince ??= new Date();
      this.#downReason = this.#lastFailure.message;
      this.#status({ kind: "failed", reason: this.#lastFailure.message });
      throw this.#lastFailure;
    }
  }

  #timed(client: ControlClient, args: readonly string[]): Promise<string[]> {
    return this.#timedReply(client.run(args), args, performance.now());
  }

  async #timedReply(reply: Promise<string[]>, args: readonly string[], started: number): Promise<string[]> {
    try {
      return await reply;
    } catch (error) {
      // A remote link that dies fails its calls as the host being unreachable, naming it.
      if (this.remote && error instanceof TmuxError && error.kind === "disconnected" && !(error instanceof HostError)) {
        throw unreachable(this.remote.host, this.remote.destination, error.message);
      }
      throw error;
    } finally {
      const ms = performance.now() - started;
      // Only the command's name: its arguments can carry what an agent typed.
      if (ms >= SLOW_COMMAND_MS) this.#status({ kind: "slow", command: args[0] ?? "", ms: Math.round(ms) });
    }
  }

  #status(status: TmuxStatus): void {
    for (const listener of this.#statusListeners) {
      try {
        listener(status);
      } catch { /* a listener's failure is not the connection's */ }
    }
  }
}

function closedError(): TmuxError {
  return new TmuxError("disconnected", "tmux connection is closed: tmuxwright is stopping");
}
