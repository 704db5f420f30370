import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError, toToolError } from "../errors.ts";
import { ChannelProcess } from "./waiter.ts";

export interface ChannelWait {
  signaled: boolean;
  elapsedMs: number;
}

interface Entry {
  process: ChannelProcess;
  listeners: Set<(signaled: true) => void>;
  /** When the last listener left, for evicting idle waiters. */
  idleSince: number;
}

/** Channels with a waiter but nobody waiting that are kept for their next signal. */
const MAX_IDLE = 32;
const MAX_PENDING = 256;

/**
 * tmux wait-for channels for agents. A wait runs in its own tmux client process, so the control
 * connection never blocks. tmux has no way to withdraw a waiter: a killed client's waiter stays
 * and absorbs the channel's next signal. So a wait that times out or is cancelled leaves its
 * process running; the next wait on that channel reuses it, and a signal that arrives while
 * nobody waits is remembered and ends the next wait at once — what tmux does for a signal with
 * no waiter. Idle waiters are bounded (the oldest is ended past MAX_IDLE).
 */
export class Channels {
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Set<string>();

  constructor(private readonly tmux: TmuxServer) {}

  /** Wakes every waiter on `channel` (tmux's `wait-for -S`); with none, tmux keeps it for the next one. */
  async signal(channel: string): Promise<void> {
    await this.tmux.run("wait-for", "-S", channel);
  }

  /** Waits for a signal on `channel` until `timeoutMs` or `signal` aborts; a timeout is an outcome. */
  async wait(channel: string, timeoutMs: number, abort: AbortSignal): Promise<ChannelWait> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (this.#pending.delete(channel)) return { signaled: true, elapsedMs: 0 };
    await this.tmux.run("display-message", "-p", "ok"); // the server exists (it is started on first use)
    const entry = this.#entry(channel);
    return new Promise((resolve, reject) => {
      const finish = (result: ChannelWait | ToolError) => {
        entry.listeners.delete(onSignal);
        if (entry.listeners.size === 0) entry.idleSince = performance.now();
        clearTimeout(timer);
        abort.removeEventListener("abort", onAbort);
        if (result instanceof ToolError) reject(result);
        else resolve(result);
      };
      const onSignal = () => finish({ signaled: true, elapsedMs: elapsed() });
      const onAbort = () =>
        finish(
          new ToolError(
            "CANCELLED",
            `Wait on channel "${channel}" cancelled after ${elapsed()} ms`,
            "A signal sent meanwhile is kept for the next wait_for_channel.",
          ),
        );
      const timer = setTimeout(() => finish({ signaled: false, elapsedMs: elapsed() }), timeoutMs);
      if (abort.aborted) return onAbort();
      abort.addEventListener("abort", onAbort);
      entry.listeners.add(onSignal);
      entry.process.done.catch((error) => finish(toToolError(error)));
    });
  }

  /** Channels whose waiter process is running (for diagnostics and tests). */
  get waiting(): string[] {
    return [...this.#entries.keys()];
  }

  close(): void {
    for (const entry of this.#entries.values()) entry.process.kill();
    this.#entries.clear();
  }

  #entry(channel: string): Entry {
    const existing = this.#entries.get(channel);
    if (existing) return existing;
    this.#evictIdle();
    const process = new ChannelProcess(this.tmux.socketArgs, channel);
    const entry: Entry = { process, listeners: new Set(), idleSince: performance.now() };
    this.#entries.set(channel, entry);
    process.done.then(
      (how) => {
        if (how === "ended") return;
        if (entry.listeners.size === 0) this.#remember(channel);
        for (const listener of [...entry.listeners]) listener(true);
      },
      () => {},
    ).finally(() => {
      if (this.#entries.get(channel) === entry) this.#entries.delete(channel);
    });
    return entry;
  }

  #remember(channel: string): void {
    this.#pending.add(channel);
    if (this.#pending.size > MAX_PENDING) this.#pending.delete(this.#pending.values().next().value!);
  }

  #evictIdle(): void {
    const idle = [...this.#entries].filter(([, e]) => e.listeners.size === 0).sort((a, b) =>
      a[1].idleSince - b[1].idleSince
    );
    while (idle.length >= MAX_IDLE) {
      const [channel, entry] = idle.shift()!;
      entry.process.kill();
      this.#entries.delete(channel);
    }
  }
}
