/**
 * Work a test leaves running in panes, to see whether it outlives its server: three `sleep`s with
 * durations no other process has (a foreground program; a job that ignores SIGHUP; a nohup'd
 * one), found again by their command line with `ps` (this machine sees the processes of its
 * containers and of the loopback ssh lab too).
 */
export interface Leftovers {
  /** A pane's command: a program in front, ended by its terminal's hang-up. */
  foreground: string;
  /** A shell line that starts two jobs that ignore the hang-up, in the background. */
  background: string;
  /** The pids of those three still running. */
  running(): Promise<number[]>;
  /** Ends whatever of them is left (a test's clean-up). */
  kill(): void;
}

export function startLeftovers(): Leftovers {
  const base = 40_000 + Math.floor(Math.random() * 50_000) * 3;
  const [fg, ignoring, nohup] = [base, base + 1, base + 2].map((n) => `sleep ${n}`);
  const running = async () => {
    const out = await new Deno.Command("ps", { args: ["-eo", "pid=,args="], stdout: "piped" }).output();
    return new TextDecoder().decode(out.stdout).split("\n").map((line) => line.trim().split(/\s+(.*)/))
      .filter(([, args]) => args === fg || args === ignoring || args === nohup).map(([pid]) => Number(pid));
  };
  return {
    foreground: fg,
    background: `(trap "" HUP; exec ${ignoring}) >/dev/null 2>&1 & nohup ${nohup} >/dev/null 2>&1 & true`,
    running,
    kill() {
      void running().then((pids) => pids.forEach((pid) => Deno.kill(pid, "SIGKILL")));
    },
  };
}
