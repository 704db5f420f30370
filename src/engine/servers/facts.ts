import { tmuxOneShot } from "../../tmux/oneshot.ts";
import type { TmuxServer } from "../../tmux/server.ts";

export interface ServerFacts {
  socketPath: string;
  alive: boolean;
  pid: number | null;
  version: string | null;
  startTime: number | null;
  sessions: number;
  windows: number;
  panes: number;
  /** Clients people use (control-mode clients, like this server's own, are not counted). */
  clients: number;
}

// Tagged rows so one round of commands gives every count.
const COMMANDS = [
  ["display-message", "-p", "I\x1f#{pid}\x1f#{version}\x1f#{start_time}\x1f#{socket_path}"],
  ["list-sessions", "-F", "S"],
  ["list-windows", "-a", "-F", "W"],
  ["list-panes", "-a", "-F", "P"],
  ["list-clients", "-F", "C\x1f#{client_control_mode}"],
];

function parse(lines: string[], socketPath: string): ServerFacts {
  const info = lines.find((l) => l.startsWith("I\x1f"))?.split("\x1f") ?? [];
  const count = (tag: string) => lines.filter((l) => l === tag).length;
  return {
    socketPath: info[4] || socketPath,
    alive: true,
    pid: Number(info[1]) || null,
    version: info[2] || null,
    startTime: Number(info[3]) || null,
    sessions: count("S"),
    windows: count("W"),
    panes: count("P"),
    clients: lines.filter((l) => l === "C\x1f0").length,
  };
}

/** Facts of the connected server, over the control connection. */
export async function connectedServerFacts(tmux: TmuxServer): Promise<ServerFacts> {
  return parse((await tmux.batch(COMMANDS)).flat(), "");
}

/** Facts of another server by socket (`-S path` or `-L name`), one tmux process; a dead socket is `alive: false`. */
export async function probeServer(socketArgs: string[], socketPath: string): Promise<ServerFacts> {
  const chained = COMMANDS.flatMap((command, i) => [...(i > 0 ? [";"] : []), ...command]);
  const out = await tmuxOneShot([...socketArgs, ...chained]);
  if (out.code !== 0 && !out.stdout.startsWith("I\x1f")) {
    return {
      socketPath,
      alive: false,
      pid: null,
      version: null,
      startTime: null,
      sessions: 0,
      windows: 0,
      panes: 0,
      clients: 0,
    };
  }
  return parse(out.stdout.split("\n"), socketPath);
}

/** Ends a tmux server (its own process: the control connection on it ends with it). */
export async function killServer(socketArgs: string[]): Promise<void> {
  await tmuxOneShot([...socketArgs, "kill-server"]);
}
