import { commandLine, QuoteMemo } from "./quote.ts";
import { classifyTmuxError, TmuxError } from "./errors.ts";
import { ControlParser, type Reply } from "./control_parser.ts";
import { UTF8 } from "./oneshot.ts";
import { modeExitBefore } from "./key_guard.ts";
import { replyBlocks } from "./reply_blocks.ts";
import { childIo, type ControlIo } from "./control_io.ts";
import { openLocalLink } from "./local_link.ts";
import { adaptCommand, DIALECT_PROBES, dialectFrom, readReply, type TmuxDialect, UNPROBED } from "./dialect.ts";

export interface ControlHandlers {
  notification?(name: string, args: string): void;
  output?(paneId: string, bytes: Uint8Array): void;
  closed?(reason: string): void;
  /** Anything read from the client (a reply, a notification, output): the link was heard. */
  heard?(): void;
  /**
   * After a read this large, wait `floodPauseMs` before the next one, so a flood of `%output`
   * is read in few large reads rather than one per write of tmux (each read costs the server CPU
   * that a two-core machine takes from the writer). For output clients, never the command one.
   */
  floodPause?: { bytes: number; ms: number };
  /**
   * A command unanswered this long means the connection is stuck (a prompt opened on this client
   * by a user's hook or binding waits for an answer it can never type): the client is ended, its
   * calls fail, and the next call reconnects. Never on a connection that runs slow commands.
   */
  stallMs?: number;
}

/** How to start a control client: the program, its arguments, and how its early death reads. */
export interface ControlLaunch {
  program: string;
  args: readonly string[];
  /** Exactly this environment (a container runtime's few variables); absent: the server's. */
  env?: Record<string, string> | null;
  /** Keep the program's stderr for `failure` (ssh says there why it could not connect). */
  keepStderr?: boolean;
  /** Give up when the client has not answered its first command within this. */
  timeoutMs?: number;
  failure(stderr: string, code: number | null, cause: Error): Error;
}

/** The last few KiB of a child's stderr (ssh says there why it could not connect); drained so it never blocks. */
class StderrTail {
  #text = "";
  readonly #done: Promise<void>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#done = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of stream) {
          this.#text = (this.#text + decoder.decode(chunk, { stream: true })).slice(-8192);
        }
      } catch { /* the child is gone */ }
    })();
  }

  /** Everything kept, once the stream has ended (bounded: the child was killed). */
  async text(): Promise<string> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.#done, new Promise((r) => timer = setTimeout(r, 2000))]);
    clearTimeout(timer);
    return this.#text;
  }
}

interface Pending {
  line: string;
  sentAt: number;
  /** Called as the reply is parsed, before any later `%output` is handed on. */
  onReply?: () => void;
  resolve(lines: string[]): void;
  reject(error: Error): void;
}

const encoder = new TextEncoder();

/**
 * One persistent `tmux -C` client. Commands are written one per line and their replies matched
 * strictly in order. It attaches with `no-output`; `%output` is switched on per pane by callers.
 * Never send a blocking command (`wait-for CHANNEL`, `run-shell` without `-b`) here: it stalls
 * every later reply. Keys (`send-keys`) are sent after `copy-mode -q` on their pane, for the same
 * reason (key_guard.ts).
 */
export class ControlClient {
  readonly #io: ControlIo;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #pending: Pending[] = [];
  #closedReason: string | null = null;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** Settles when tmux says this client is attached (`%session-changed`), or rejects when it ends first. */
  readonly #attached = Promise.withResolvers<void>();
  #serverIdentity = "";
  #dialect: TmuxDialect = UNPROBED;
  readonly #quotes = new QuoteMemo();
  readonly closed: Promise<void>;
  #name = "";

  private constructor(io: ControlIo, private readonly handlers: ControlHandlers) {
    this.#io = io;
    this.#writer = io.writable.getWriter();
    const parser = new ControlParser({
      reply: (reply) => this.#settle(reply),
      notification: (name, args) => {
        if (name === "%session-changed") this.#attached.resolve();
        if (name === "%exit") this.#close(args || "tmux ended the control connection");
        handlers.notification?.(name, args);
      },
      output: (paneId, bytes) => handlers.output?.(paneId, bytes),
    });
    this.#attached.promise.catch(() => {}); // a client that ends before attaching fails its proof instead
    this.closed = this.#read(parser);
  }

  /** How long the oldest command sent has waited for its reply (0: none waits). */
  get unansweredMs(): number {
    return this.#pending.length === 0 ? 0 : performance.now() - this.#pending[0].sentAt;
  }

  /**
   * Starts `tmux -C attach -t =SESSION` and resolves once tmux has attached. `socketArgs` selects
   * the server (`-L name` / `-S path`). With `relayRoot` (a directory of the state directory) the
   * client runs behind the link script, which guards its attach and its end (src/tmux/local_link.ts);
   * without, it is this process's child (a private tmux server, the tmux layer's own tests).
   */
  static async connect(
    socketArgs: readonly string[],
    session: string,
    handlers: ControlHandlers = {},
    relayRoot: string | null = null,
  ): Promise<ControlClient> {
    const failure = (cause: Error) =>
      new TmuxError("server_gone", `Cannot attach to tmux session "${session}": ${cause.message}`);
    if (relayRoot === null) {
      return await ControlClient.launch({
        program: "tmux",
        args: [...UTF8, ...socketArgs, ...controlAttachArgs(session)],
        // An attach that never answers (a tmux server exiting, or a client that hangs) must end.
        timeoutMs: ATTACH_LIMIT_MS,
        failure: (_stderr, _code, cause) => failure(cause),
      }, handlers);
    }
    const { io, why } = await openLocalLink(
      socketArgs,
      controlAttachArgs(session),
      session,
      relayRoot,
      ATTACH_LIMIT_MS,
    );
    try {
      return await ControlClient.#proven(new ControlClient(io, handlers), ATTACH_LIMIT_MS);
    } catch (error) {
      const reason = await why();
      throw failure(reason ? new Error(reason) : error as Error);
    }
  }

  /**
   * Spawns a control client from any program whose stdio is a `tmux -C` client (tmux itself, or
   * `ssh … tmux -C` for a remote host) and resolves once it answers a command. If it ends or
   * stays silent past `timeoutMs` first, `failure` turns its stderr and exit status into the error.
   */
  static async launch(spec: ControlLaunch, handlers: ControlHandlers = {}): Promise<ControlClient> {
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(spec.program, {
        args: [...spec.args],
        ...(spec.env ? { env: spec.env, clearEnv: true } : {}),
        stdin: "piped",
        stdout: "piped",
        stderr: spec.keepStderr ? "piped" : "null",
      }).spawn();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound && spec.program === "tmux") {
        throw new TmuxError("tmux_missing", "tmux is not installed or not on PATH: install tmux 3.2 or newer");
      }
      throw error;
    }
    const stderr = spec.keepStderr ? new StderrTail(child.stderr) : null;
    try {
      return await ControlClient.#proven(new ControlClient(childIo(child), handlers), spec.timeoutMs);
    } catch (error) {
      const status = await child.status.catch(() => null);
      throw spec.failure((await stderr?.text()) ?? "", status?.code ?? null, error as Error);
    }
  }

  /**
   * Resolves with the client once it is attached, or ends it. A reply proves tmux reads commands;
   * it does not prove the attach: tmux may run commands read from stdin before the attach-session
   * from argv (over ssh, seen on 3.3a after a whole pipelined batch). Unattached, a client gets no
   * `%output`, and what panes write meanwhile is never sent to it. tmux tells the client it
   * attached with `%session-changed`.
   */
  static async #proven(client: ControlClient, timeoutMs: number | undefined): Promise<ControlClient> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // The proof names the tmux server: a link tells a restarted one from the same. Its pid and start
      // second are not enough (a container's tmux gets the same pid each start, and two starts can
      // fall in one second): the first client marks the server with a random name, kept (-o) after.
      // The dialect's probes go in the same write: what this server does differently costs no round trip.
      const mark = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
      const [marked, identity, version, paste] = client.runMany([
        ["set-option", "-s", "-o", SERVER_MARK, mark],
        ["display-message", "-p", SERVER_IDENTITY],
        ...DIALECT_PROBES,
      ]);
      marked.catch(() => {}); // already marked: refused, as meant
      const refusal = paste.then(() => "", (error: Error) => error.message);
      const proof = Promise.all([identity, version, refusal, client.#attached.promise])
        .then(([[identity], [version], refusal]) => {
          client.#serverIdentity = identity ?? "";
          client.#dialect = dialectFrom(version ?? "", refusal);
        })
        // Its own name, asked once attached: before, the format has no client to name.
        .then(() => client.run(["display-message", "-p", "#{client_name}"]))
        .then(([name]) => void (client.#name = name ?? ""));
      const timeout = new Promise<never>((_, reject) => {
        if (timeoutMs === undefined) return;
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      await Promise.race([proof, timeout]);
      return client;
    } catch (error) {
      client.kill();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The tmux server this client reached: its pid and start time (another value: another server). */
  get serverIdentity(): string {
    return this.#serverIdentity;
  }

  /** What this client's tmux server does differently from other releases (src/tmux/dialect.ts). */
  get dialect(): TmuxDialect {
    return this.#dialect;
  }

  /** tmux's name for this client (`client-<pid>`), to target it exactly with `-t`. */
  get clientName(): string {
    return this.#name;
  }

  get isOpen(): boolean {
    return this.#closedReason === null;
  }

  /** Runs one tmux command and resolves with its output lines; a tmux error rejects. */
  run(args: readonly string[]): Promise<string[]> {
    return this.runMany([args])[0];
  }

  /**
   * Runs several commands written in one write (pipelined); one reply promise per command, in order.
   * `onReply[i]` runs synchronously when command i's reply is parsed: every `%output` tmux sent
   * before that reply has been handed on, none sent after it.
   */
  runMany(
    commands: readonly (readonly string[])[],
    onReply: readonly ((() => void) | undefined)[] = [],
  ): Promise<string[]>[] {
    if (commands.length === 0) return []; // nothing to write: an empty line would detach the client
    const adapted = commands.map((command) => adaptCommand(this.#dialect, command));
    const lines = adapted.map((a) => commandLine(a.command, this.#quotes));
    const blocks = commands.map(replyBlocks); // before anything is queued: a refusal leaves no trace
    if (this.#closedReason !== null) {
      const reason = this.#closedReason;
      return lines.map((line) =>
        Promise.reject(new TmuxError("disconnected", `tmux connection is closed: ${reason}`, line))
      );
    }
    const written: string[] = [];
    const sentAt = performance.now();
    const replies = lines.map((line, i) => {
      // Keys never reach a pane's mode, whose bindings could stall this connection (key_guard.ts).
      const modeExit = modeExitBefore(commands[i]);
      if (modeExit) {
        written.push(commandLine(modeExit));
        this.#pending.push({ line: written.at(-1)!, sentAt, resolve: () => {}, reject: () => {} });
      }
      const { promise, resolve: settle, reject } = Promise.withResolvers<string[]>();
      const resolve = (lines: string[]) => settle(readReply(adapted[i], lines));
      if (blocks[i] === 2) {
        // if-shell: its own (empty) block, then its branch's, which never comes when if-shell failed.
        let first: string[] = [];
        const both = (lines: string[]) => resolve([...first, ...lines]);
        const branch: Pending = { line, sentAt, resolve: both, reject, onReply: onReply[i] };
        const fail = (error: Error) => {
          if (this.#pending[0] === branch) this.#pending.shift();
          reject(error);
        };
        this.#pending.push({ line, sentAt, resolve: (lines) => void (first = lines), reject: fail }, branch);
        written.push(line);
        return promise;
      }
      this.#pending.push({ line, sentAt, resolve, reject, onReply: onReply[i] });
      written.push(line);
      return promise;
    });
    this.#writer.write(encoder.encode(written.join("\n") + "\n")).catch((error) => this.#close(String(error)));
    this.#watchStall();
    return replies;
  }

  /** Detaches (closing stdin makes tmux send `%exit` and end the client). */
  async close(): Promise<void> {
    if (this.#closedReason === null) {
      await this.#writer.close().catch(() => {});
    }
    await this.closed;
  }

  /** Detaches, and ends the process if it has not exited within `ms` (a step under a lock must end). */
  async closeWithin(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.close(), new Promise((resolve) => timer = setTimeout(resolve, ms))]);
    clearTimeout(timer);
    this.kill();
    await this.closed;
  }

  /** Ends the client at once (a stuck connection; behind a relay, its end is still guarded). */
  kill(): void {
    this.#io.kill();
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.shift();
    if (!pending) return; // a reply with nobody waiting: cannot happen for flags=1 blocks
    try {
      pending.onReply?.();
    } catch { /* the hook's failure is not the reply's */ }
    if (reply.ok) pending.resolve(reply.lines);
    else pending.reject(classifyTmuxError(reply.lines.join("\n"), pending.line));
  }

  async #read(parser: ControlParser): Promise<void> {
    const pause = this.handlers.floodPause;
    try {
      for await (const chunk of this.#io.readable) {
        this.handlers.heard?.();
        parser.push(chunk);
        if (pause && chunk.length >= pause.bytes) await new Promise((r) => setTimeout(r, pause.ms));
      }
    } catch (error) {
      this.#close(String(error));
    }
    this.#close("tmux control client exited");
    await this.#io.ended;
  }

  /** Checks, while commands wait, that the oldest is answered within `stallMs`. */
  #watchStall(): void {
    const stallMs = this.handlers.stallMs;
    if (stallMs === undefined || this.#stallTimer !== undefined || this.#pending.length === 0) return;
    const due = this.#pending[0].sentAt + stallMs - performance.now();
    this.#stallTimer = setTimeout(() => {
      this.#stallTimer = undefined;
      const oldest = this.#pending[0];
      if (oldest && performance.now() - oldest.sentAt >= stallMs) {
        const name = oldest.line.split(" ")[0];
        this.kill();
        this.#close(`tmux did not answer ${name} within ${stallMs / 1000} s (the connection was stuck; it reconnects)`);
        return;
      }
      this.#watchStall();
    }, Math.max(0, due));
    Deno.unrefTimer(this.#stallTimer);
  }

  #close(reason: string): void {
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
    if (this.#closedReason !== null) return;
    this.#closedReason = reason;
    for (const pending of this.#pending.splice(0)) {
      pending.reject(new TmuxError("disconnected", `tmux connection closed: ${reason}`, pending.line));
    }
    this.#attached.reject(new TmuxError("disconnected", `tmux connection closed before attaching: ${reason}`));
    this.#writer.close().catch(() => {});
    this.handlers.closed?.(reason);
  }
}

const SERVER_MARK = "@tmuxwright_server";
const SERVER_IDENTITY = `#{pid} #{start_time} #{${SERVER_MARK}}`;

/** How long a local control client may take to attach and answer. */
export const ATTACH_LIMIT_MS = 10_000;

/** The control client's own arguments (after the socket's): the reaper knows a dead owner's client by them. */
export function controlAttachArgs(session: string): string[] {
  return ["-C", "attach-session", "-f", "no-output", "-t", `=${session}`];
}
