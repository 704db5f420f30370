import { dirname } from "node:path";

/**
 * tmux 3.3a crashes (the whole server, with every session on it) when a session is created or
 * closed, or a control client ends, while a control-mode client is attaching: it sends
 * `%sessions-changed` or `%client-detached` to a client that has said it is a control client but
 * has no control state yet (later tmux checks for that). Servers side by side hit this when they
 * start together. The guard makes these mutually exclusive among the tmuxwright processes of one
 * state directory: an exclusive `flock` on one file, taken around `new-session`, `kill-session`
 * and a control client's attach and end, each a few milliseconds (on a remote host the host keeps
 * it: src/tmux/host_session_lock.ts). It is released when its holder dies, and if it cannot be
 * had within a bound the step runs unguarded (a rare crash is better than no service).
 */
export class SessionGuard {
  #tail: Promise<unknown> = Promise.resolve();

  /** `lockPath` null: no guard (a private tmux server, tests of the tmux layer). */
  constructor(private readonly lockPath: string | null, private readonly waitMs = 3000) {}

  run<T>(step: () => Promise<T>): Promise<T> {
    if (this.lockPath === null) return step();
    const run = this.#tail.then(() => this.#locked(this.lockPath!, step)); // one holder per process too
    this.#tail = run.catch(() => {});
    return run;
  }

  async #locked<T>(path: string, step: () => Promise<T>): Promise<T> {
    const file = await this.#acquire(path).catch(() => null);
    try {
      return await step();
    } finally {
      file?.close();
    }
  }

  async #acquire(path: string): Promise<Deno.FsFile | null> {
    await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
    // Polled, not a blocking lock(): a blocked lock() holds a runtime thread and cannot time out.
    const deadline = performance.now() + this.waitMs;
    for (let pause = 1; !await file.tryLock(true); pause = Math.min(pause * 2, 20)) {
      if (performance.now() > deadline) {
        file.close();
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    return file;
  }
}
