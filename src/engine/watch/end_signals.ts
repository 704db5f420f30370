import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { ChannelProcess } from "../channels/mod.ts";

/** The hooks that tell this server at once that a watched pane ended (see PaneEnds). */
const PANE_HOOKS = ["pane-died", "pane-exited"] as const;
// A pane removed from a window outside the attached session sends no notification; its window's layout changes.
const WINDOW_HOOK = "window-layout-changed";

/**
 * tmux 3.3a tells a control client nothing when a pane's program exits (with remain-on-exit on,
 * the pane stays; without, it goes quietly when it was not the last of a window outside the
 * attached session). So while a pane is watched, its `pane-died`/`pane-exited` hooks and its
 * window's `window-layout-changed` hook signal a `wait-for` channel of this server, and one
 * `tmux wait-for` client waits on it: its exit is the event. The hooks are array entries at an
 * index of this process (`pane-died[N]`), so a person's own hooks stay, and are removed when the
 * last wait on the pane ends. Locally only: a host link cannot block on `wait-for`.
 */
export class EndSignals {
  readonly #panes = new Map<string, string>(); // watched pane → its window
  readonly #windows = new Map<string, number>(); // window → watched panes in it
  readonly #channel: string;
  readonly #index: number;
  #waiter: ChannelProcess | null = null;

  constructor(private readonly tmux: TmuxServer, private readonly onSignal: () => void) {
    const tag = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
    this.#channel = `tmuxwright-ends-${Deno.pid}-${tag}`;
    this.#index = 1000 + (Deno.pid % 9000);
  }

  get enabled(): boolean {
    return this.tmux.remote === undefined;
  }

  /** Hooks the pane (once however many wait on it); resolves when tmux has them. */
  async add(pane: PaneInfo): Promise<void> {
    if (!this.enabled || this.#panes.has(pane.paneId)) return;
    this.#panes.set(pane.paneId, pane.windowId);
    const inWindow = this.#windows.get(pane.windowId) ?? 0;
    this.#windows.set(pane.windowId, inWindow + 1);
    const signal = `wait-for -S ${this.#channel}`;
    const commands = PANE_HOOKS.map((hook) => ["set-hook", "-p", "-t", pane.paneId, this.#hook(hook), signal]);
    if (inWindow === 0) commands.push(["set-hook", "-w", "-t", pane.paneId, this.#hook(WINDOW_HOOK), signal]);
    await Promise.allSettled(await this.tmux.pipeline(commands)); // a pane already gone: the check says so
    this.#ensureWaiter();
  }

  remove(paneId: string): void {
    const windowId = this.#panes.get(paneId);
    if (windowId === undefined) return;
    this.#panes.delete(paneId);
    const left = (this.#windows.get(windowId) ?? 1) - 1;
    if (left > 0) this.#windows.set(windowId, left);
    else this.#windows.delete(windowId);
    if (!this.tmux.connected) return; // a dead server has no hooks left; never reconnect for this
    const commands = PANE_HOOKS.map((hook) => ["set-hook", "-u", "-p", "-t", paneId, this.#hook(hook)]);
    if (left <= 0) commands.push(["set-hook", "-u", "-w", "-t", windowId, this.#hook(WINDOW_HOOK)]);
    this.tmux.pipeline(commands).then((replies) => Promise.allSettled(replies), () => {});
  }

  /**
   * Ends the waiter (at shutdown only: tmux keeps a killed client's waiter, which would take a
   * later signal meant for the next one; a waiter left running ends at the next signal instead).
   */
  close(): void {
    this.#waiter?.kill();
    this.#waiter = null;
  }

  #hook(name: string): string {
    return `${name}[${this.#index}]`;
  }

  #ensureWaiter(): void {
    if (this.#waiter !== null || this.#panes.size === 0) return;
    const waiter = new ChannelProcess(this.tmux.socketArgs, this.#channel);
    this.#waiter = waiter;
    waiter.done.then((how) => {
      if (how === "ended" || this.#waiter !== waiter) return;
      this.#waiter = null;
      this.onSignal();
      this.#ensureWaiter();
    }, () => {
      // tmux refused or its server is gone: the control connection's loss says which; no respawn loop.
      if (this.#waiter === waiter) this.#waiter = null;
      this.onSignal();
    });
  }
}
