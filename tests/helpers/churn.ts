import { TestServer } from "./harness.ts";

/**
 * Two processes that keep both cores busy, as an agent's own build does beside the server: what
 * makes tmux clients slow to identify, which is when tmux 3.3a's crash window is open.
 */
export function cpuBurners(count = 2): AsyncDisposable & { stop(): Promise<void> } {
  const burners = Array.from(
    { length: count },
    () => new Deno.Command("sh", { args: ["-c", "while :; do :; done"], stdout: "null", stderr: "null" }).spawn(),
  );
  const stop = async () => {
    for (const burner of burners) {
      try {
        burner.kill("SIGKILL");
      } catch { /* already gone */ }
    }
    await Promise.all(burners.map((b) => b.status));
  };
  return { stop, [Symbol.asyncDispose]: stop };
}

export interface ChurnOptions {
  /** Starts one tmuxwright server of the churn (each on the tmux server under test). */
  start: () => Promise<TestServer>;
  /** What each server does before it ends: create a pane and run a command in it. */
  work: (server: TestServer) => Promise<void>;
  workers: number;
  cycles: number;
}

/**
 * `workers` loops of `cycles` each: a server starts, works, and ends, every other one cleanly
 * (stdin closed) and the rest by SIGKILL (its links and control clients end with nobody to say
 * goodbye). Returns the errors the work met (a tmux server that died shows up here).
 */
export async function churn(options: ChurnOptions): Promise<string[]> {
  const errors: string[] = [];
  const loop = async (worker: number) => {
    for (let cycle = 0; cycle < options.cycles; cycle++) {
      let server: TestServer | null = null;
      try {
        server = await options.start();
        await options.work(server);
      } catch (error) {
        errors.push(`worker ${worker} cycle ${cycle}: ${(error as Error).message}`);
      } finally {
        if (server && (worker + cycle) % 2 === 1) {
          try {
            Deno.kill(server.pid, "SIGKILL");
          } catch { /* already gone */ }
        }
        await server?.close(false);
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, worker) => loop(worker)));
  return errors;
}
