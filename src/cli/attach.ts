import type { Config } from "../config.ts";
import { tmuxOneShot } from "../tmux/oneshot.ts";

/** `tmuxwright attach`: puts this terminal on the newest live workspace so a person can watch. */
export async function attach(config: Readonly<Config>): Promise<number> {
  const list = await tmuxOneShot([...config.socketArgs, "list-sessions", "-F", "#{session_created} #{session_name}"]);
  const workspaces = list.stdout.split("\n")
    .map((line) => line.split(" "))
    .filter(([, name]) => /^tmuxwright-\d+$/.test(name ?? ""))
    .sort((a, b) => Number(b[0]) - Number(a[0]));
  if (workspaces.length === 0) {
    console.error(
      "No tmuxwright workspace is running on this tmux server (try --socket/--socket-path/--isolated's socket).",
    );
    return 1;
  }
  const target = workspaces[0][1];
  if (workspaces.length > 1) {
    console.error(`Attaching to ${target}; others: ${workspaces.slice(1).map((w) => w[1]).join(", ")}`);
  }
  const args = [...config.socketArgs, "attach-session", "-r", "-t", `=${target}`];
  if (!Deno.stdin.isTerminal()) {
    console.log(["tmux", ...args].join(" "));
    return 0;
  }
  const status = await new Deno.Command("tmux", { args, stdin: "inherit", stdout: "inherit", stderr: "inherit" })
    .spawn().status;
  return status.code;
}
