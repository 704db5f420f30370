import type { OutputSubscription, PaneOutput } from "../../engine/output/mod.ts";

/** Tells a waiter that a pane wrote something since it last looked. */
export interface ChangeWatch {
  /** Resolves at the next output after the previous call (at once if some arrived meanwhile). */
  next(): Promise<void>;
  close(): void;
}

interface Tap {
  subscription: Promise<OutputSubscription>;
  waiters: Set<() => void>;
}

/**
 * Output events of bridge panes, from the app's output source (`%output` through a control
 * client attached to the pane's session). A pane's subscription is kept once opened, so later
 * waits on the same session start at once instead of attaching a new tmux client each time.
 */
export class PaneActivity {
  readonly #taps = new Map<string, Tap>();

  constructor(
    private readonly output: PaneOutput,
    /** Runs a step when no session is being created or killed (see TmuxBackend). */
    private readonly serialised: <T>(step: () => Promise<T>) => Promise<T>,
  ) {}

  async watch(target: { paneId: string; tmuxName: string }): Promise<ChangeWatch> {
    let tap = this.#taps.get(target.paneId);
    if (!tap) {
      const waiters = new Set<() => void>();
      const subscription = this.serialised(() =>
        this.output.subscribe(
          { paneId: target.paneId, sessionName: target.tmuxName, logPath: null },
          () => waiters.forEach((wake) => wake()),
        )
      );
      tap = { subscription, waiters };
      this.#taps.set(target.paneId, tap);
      subscription.catch(() => this.#taps.delete(target.paneId));
    }
    await tap.subscription;
    let dirty = false;
    let wake: (() => void) | null = null;
    const onOutput = () => {
      dirty = true;
      wake?.();
    };
    const waiters = tap.waiters;
    waiters.add(onOutput);
    return {
      next: () => {
        if (dirty) {
          dirty = false;
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          wake = () => {
            wake = null;
            dirty = false;
            resolve();
          };
        });
      },
      close: () => void waiters.delete(onOutput),
    };
  }

  /** Drops a pane's subscription (its session was killed). */
  forget(paneId: string): void {
    const tap = this.#taps.get(paneId);
    this.#taps.delete(paneId);
    tap?.subscription.then((s) => s.close()).catch(() => {});
  }

  close(): void {
    for (const paneId of [...this.#taps.keys()]) this.forget(paneId);
  }
}
