import type { TmuxServer } from "../../tmux/server.ts";
import { type Typed, wakeOn } from "./typed.ts";
import { deadPaneStatus, foreground } from "./shell.ts";

/** How often a job's pane is asked whether it died (a shell that ran `exit` prints no end marker). */
const LIVENESS_MS = 1000;

/**
 * The command a pane was last started for (execute_command, start_process), followed until its
 * end marker arrives, its pane dies, or another command replaces it. Others learn from here when
 * that command exits and with which status (watch_pane's `exit`).
 */
export class Job {
  #recorded: { code: number | null } | null = null;
  readonly #ended = Promise.withResolvers<void>();

  constructor(readonly typed: Typed) {}

  /** The command has begun: its start marker was seen. */
  get started(): boolean {
    return this.typed.scanner.startEnd !== null;
  }

  /** Its exit once known: the status from the end marker, the pane's, or a status probe (null: unknown). */
  get exit(): { code: number | null } | null {
    const end = this.typed.scanner.end;
    return end ? { code: end.status } : this.#recorded;
  }

  /** Resolves when the exit becomes known, or the job stops being followed. */
  whenEnded(): Promise<void> {
    return this.#ended.promise;
  }

  /** Records an exit learned another way (the pane died; a status probe after Ctrl-C). */
  record(code: number | null): void {
    if (this.exit === null) this.#recorded = { code };
    this.#ended.resolve();
  }

  /** No longer followed: the output subscription is closed. */
  stop(): void {
    this.typed.close();
    this.#ended.resolve();
  }
}

/** How often panes that no longer exist are forgotten (their jobs hold the commands' kept output). */
const PRUNE_MS = 30_000;

/** One job per pane, the latest; each followed by one loop until it ends. */
export class JobTable {
  readonly #jobs = new Map<string, Job>();
  #pruned = performance.now();

  constructor(private readonly tmux: TmuxServer) {}

  /** Makes `typed` the pane's current job and follows it; a job it replaces is no longer followed. */
  follow(typed: Typed): Job {
    const job = new Job(typed);
    this.#jobs.get(typed.paneId)?.stop();
    this.#jobs.set(typed.paneId, job);
    void this.#follow(job);
    void this.#prune();
    return job;
  }

  /**
   * Forgets the ended jobs of panes that are gone. Found by the soak: every pane a command ever ran
   * in kept its last job, and with it the command's stream and kept output, for the server's life.
   */
  async #prune(): Promise<void> {
    if (performance.now() - this.#pruned < PRUNE_MS) return;
    this.#pruned = performance.now();
    const listed = await this.tmux.run("list-panes", "-a", "-F", "#{pane_id}").catch(() => null);
    if (listed === null) return;
    const live = new Set(listed);
    for (const [paneId, job] of this.#jobs) {
      if (!live.has(paneId) && job.exit !== null) this.#jobs.delete(paneId);
    }
  }

  /** The pane's current job, or null when no command was typed into it by this server. */
  current(paneId: string): Job | null {
    return this.#jobs.get(paneId) ?? null;
  }

  async #follow(job: Job): Promise<void> {
    const paneId = job.typed.paneId;
    let nextCheck = performance.now() + LIVENESS_MS;
    try {
      while (job.exit === null && this.#jobs.get(paneId) === job) {
        await wakeOn(job.typed.changed(), nextCheck - performance.now());
        if (job.exit !== null || performance.now() < nextCheck) continue;
        nextCheck = performance.now() + LIVENESS_MS;
        const state = await foreground(this.tmux, paneId).catch(() => null);
        if (state === null) job.record(null); // the pane is gone
        else if (state.dead) job.record(await deadPaneStatus(this.tmux, paneId));
      }
    } finally {
      job.stop();
    }
  }
}
