import type { TmuxServer } from "../../tmux/server.ts";
import { TmuxError } from "../../tmux/errors.ts";
import { normalizeKey } from "../../tmux/keys.ts";
import { captureAlongside, type Paster, resolveAndCapture } from "../../engine/panes/mod.ts";
import type { PaneOutput } from "../../engine/output/mod.ts";
import type { PolicyGate } from "../../engine/policy/mod.ts";
import { ToolError } from "../../engine/errors.ts";
import {
  type BridgeBackend,
  BridgeError,
  type CaptureOptions,
  duplicate,
  notFound,
  type SendAndCaptureOptions,
  type SendInput,
} from "./backend.ts";
import {
  type BridgeSession,
  LIST_SESSIONS,
  listBridgeSessions,
  NAME_OPTION,
  parseBridgeSessions,
  tmuxSessionName,
} from "./tmux_sessions.ts";
import { PaneActivity } from "./pane_activity.ts";
import { waitForPattern } from "./tmux_wait.ts";

export interface TmuxBackendDeps {
  tmux: TmuxServer;
  output: PaneOutput;
  paster: Paster;
  /** The app's workspace instance: pane names resolve within it (the bridge passes pane ids). */
  instance: string;
  tmuxVersion: string;
  /** Shown by /health; null when the server is tmux's default socket. */
  socketPath: string | null;
  /** Each tmux operation slower than this fails with 504. */
  commandTimeoutMs: number;
  /** The command policy: input is judged as typed at a shell prompt (403 when refused; no one can be asked). */
  gate?: PolicyGate;
}

/**
 * The bridge over real tmux sessions, driven through the app's one control connection. Waits
 * for `wait_for` are woken by the pane's `%output`, never by polling the screen.
 */
export class TmuxBackend implements BridgeBackend {
  readonly mode = "tmux";
  readonly #activity: PaneActivity;
  #structural: Promise<unknown> = Promise.resolve();
  /** The pane each session's input went to last time, so a capture can check and read it in one round trip. */
  readonly #lastSeen = new Map<string, BridgeSession>();

  constructor(private readonly deps: TmuxBackendDeps) {
    this.#activity = new PaneActivity(deps.output, (step) => this.#serialised(step));
  }

  async health() {
    const sessions = await this.#op(() => listBridgeSessions(this.deps.tmux));
    return {
      backend: "tmux",
      tmuxVersion: this.deps.tmuxVersion,
      ...(this.deps.socketPath ? { socketPath: this.deps.socketPath } : {}),
      sessions: sessions.length,
    };
  }

  async list() {
    const sessions = await this.#op(() => listBridgeSessions(this.deps.tmux));
    return sessions.map((s) => s.name).sort();
  }

  /** Serialised, so two requests cannot both claim one name. */
  create(name: string, cwd: string | undefined): Promise<void> {
    return this.#serialised(() => this.#create(name, cwd));
  }

  /**
   * Creating sessions, killing them and attaching a control client for a pane's output run one
   * at a time. The tmux 3.3a server was seen to exit (taking every session with it) while 20
   * sessions were created and control clients attached to them at once; not reproduced since,
   * so this is a precaution that costs only the structural steps, never typing or capturing.
   */
  #serialised<T>(step: () => Promise<T>): Promise<T> {
    const run = this.#structural.then(step);
    this.#structural = run.catch(() => {});
    return run;
  }

  async send(session: string, input: SendInput) {
    await this.#type(await this.#session(session), input);
  }

  async capture(session: string, options: CaptureOptions) {
    const seen = this.#lastSeen.get(session);
    if (seen) {
      // The session listing rides along with the capture: if the session still sends its input to
      // that pane, this is the answer; if not (killed, recreated, window switched), look again.
      const { capture, replies } = await this.#op(
        () => captureAlongside(this.deps.tmux, seen.paneId, options, [[...LIST_SESSIONS]]),
        seen,
      );
      const now = parseBridgeSessions(replies[0]).find((s) => s.name === session);
      if (!now) {
        this.#lastSeen.delete(session);
        throw notFound(session);
      }
      if (capture && now.id === seen.id && now.paneId === seen.paneId) return capture.text;
    }
    return await this.#capture(await this.#session(session), options);
  }

  async sendAndCapture(session: string, input: SendInput, options: SendAndCaptureOptions, signal: AbortSignal) {
    const started = performance.now();
    const target = await this.#session(session);
    // Listen before typing, so output that answers the input cannot slip past the wait.
    const watch = options.waitFor ? await this.#op(() => this.#activity.watch(target)) : null;
    try {
      await this.#type(target, input);
      const output = await waitForPattern({
        waitMs: options.waitMs,
        timeoutMs: options.timeoutMs,
        pattern: options.waitFor,
        capture: () => this.#capture(target, options),
        changed: watch,
        signal,
      });
      return { output, elapsedMs: performance.now() - started };
    } finally {
      watch?.close();
    }
  }

  async kill(session: string) {
    const target = await this.#session(session);
    await this.#serialised(() => this.#op(() => this.deps.tmux.guarded([["kill-session", "-t", target.id]])));
    this.#activity.forget(target.paneId);
    this.#lastSeen.delete(session);
  }

  close() {
    this.#activity.close();
    return Promise.resolve();
  }

  async #create(name: string, cwd: string | undefined) {
    const sessions = await this.#op(() => listBridgeSessions(this.deps.tmux));
    if (sessions.some((s) => s.name === name)) throw duplicate(name);
    const tmuxName = tmuxSessionName(name, new Set(sessions.map((s) => s.tmuxName)));
    const args = ["new-session", "-d", "-P", "-F", "#{session_id}", "-s", tmuxName, ...(cwd ? ["-c", cwd] : [])];
    const [id] = await this.#op(() => this.deps.tmux.guarded([args]));
    await this.#op(() => this.deps.tmux.run("set-option", "-t", id, NAME_OPTION, name));
  }

  async #session(name: string): Promise<BridgeSession> {
    const sessions = await this.#op(() => listBridgeSessions(this.deps.tmux));
    const found = sessions.find((s) => s.name === name);
    if (!found) {
      this.#lastSeen.delete(name);
      throw notFound(name);
    }
    // Bounded: a long-lived bridge may see many short-lived session names.
    if (this.#lastSeen.size >= 1000) this.#lastSeen.delete(this.#lastSeen.keys().next().value!);
    this.#lastSeen.set(name, found);
    return found;
  }

  async #type(target: BridgeSession, input: SendInput) {
    const pane = target.paneId;
    const typed = [
      ...(input.text === undefined ? [] : [{ text: input.text, bracketed: /[\r\n]/.test(input.text) }]),
      ...(input.keys ?? []).map((key) => ({ key: normalizeKey(key) ?? key })),
      ...(input.enter ? [{ key: "Enter" }] : []),
    ];
    const gate = this.deps.gate;
    const scope = { tool: "bridge send", ask: null, allowed: new Set<string>() }; // no one to ask
    await gate?.within(scope, () => gate.checkTyping({ paneId: pane, command: "sh" }, "local", typed)).catch(
      (error) => {
        throw error instanceof ToolError ? new BridgeError(403, `${error.code}: ${error.message}`) : error;
      },
    );
    // A newline typed as a key would run what precedes it; pasted (bracketed) it is only text.
    if (input.text !== undefined && /[\r\n]/.test(input.text)) {
      await this.#op(() => this.deps.paster.paste(pane, input.text!, { bracketed: true, enter: false }));
    }
    const commands: string[][] = [];
    if (input.text !== undefined && !/[\r\n]/.test(input.text)) {
      commands.push(["send-keys", "-t", pane, "-l", "--", input.text]);
    }
    // Known names are canonicalised (`c-c` → `C-c`); tmux types any other token as its characters.
    const keys = (input.keys ?? []).map((key) => normalizeKey(key) ?? key);
    if (keys.length > 0) commands.push(["send-keys", "-t", pane, "--", ...keys]);
    if (input.enter) commands.push(["send-keys", "-t", pane, "Enter"]);
    if (commands.length > 0) await this.#op(() => this.deps.tmux.batch(commands), target);
  }

  async #capture(target: BridgeSession, options: CaptureOptions): Promise<string> {
    const { capture } = await this.#op(
      () =>
        resolveAndCapture(this.deps.tmux, target.paneId, this.deps.instance, {
          lines: options.lines,
          joinWrapped: options.joinWrapped,
        }),
      target,
    );
    return capture.text;
  }

  /** One tmux operation under the command timeout; a vanished target becomes 404. */
  async #op<T>(run: () => Promise<T>, target?: BridgeSession): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = this.deps.commandTimeoutMs;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BridgeError(504, `tmux command timed out after ${limit}ms.`)), limit);
    });
    try {
      return await Promise.race([run(), timeout]);
    } catch (error) {
      if (target && isGone(error)) throw notFound(target.name);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

function isGone(error: unknown): boolean {
  if (error instanceof TmuxError) return error.kind === "target_gone";
  // resolveAndCapture reports a vanished pane as the agent-facing PANE_NOT_FOUND.
  return (error as { code?: string }).code === "PANE_NOT_FOUND";
}
