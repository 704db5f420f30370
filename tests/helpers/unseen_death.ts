/**
 * Kills a server (SIGKILL) whose death its tmux server does not see: the link scripts that would
 * (src/tmux/host_session_lock.ts: they end a dead server's workspace) are killed first. What a
 * server leaves whose control connection was down when it died, for the reapers of later
 * servers to find (src/engine/workspaces/reaper.ts).
 */
export async function killUnseen(pid: number): Promise<void> {
  const found = await new Deno.Command("pgrep", { args: ["-f", `tw_gone ${pid} &&`], stdout: "piped" }).output();
  for (const line of new TextDecoder().decode(found.stdout).split("\n")) {
    if (/^\d+$/.test(line)) Deno.kill(Number(line), "SIGKILL");
  }
  Deno.kill(pid, "SIGKILL");
}
