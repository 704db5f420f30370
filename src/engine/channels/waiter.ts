import { classifyTmuxError } from "../../tmux/errors.ts";

/**
 * One `tmux wait-for CHANNEL` client process: it exits 0 when the channel is signalled. It runs
 * apart from the shared control connection, where a wait-for would hold up every later command.
 */
export class ChannelProcess {
  /** "ended": killed by us (the tmux client exits 0 on SIGTERM too, so the status alone cannot tell). */
  readonly done: Promise<"signaled" | "ended">;
  readonly #child: Deno.ChildProcess;
  #killed = false;

  constructor(socketArgs: readonly string[], readonly channel: string) {
    this.#child = new Deno.Command("tmux", {
      args: [...socketArgs, "wait-for", channel],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    this.done = this.#child.output().then((out) => {
      if (this.#killed) return "ended";
      if (out.success) return "signaled";
      throw classifyTmuxError(new TextDecoder().decode(out.stderr), `wait-for ${channel}`);
    });
    this.done.catch(() => {}); // observed by whoever waits; never an unhandled rejection
  }

  /** Ends the client. tmux keeps its (now dead) waiter until the next signal, which that waiter absorbs. */
  kill(): void {
    this.#killed = true;
    try {
      this.#child.kill("SIGTERM");
    } catch { /* already exited */ }
  }
}
