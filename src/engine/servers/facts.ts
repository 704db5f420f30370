import { type OneShotResult, tmuxOneShot } from "../../tmux/oneshot.ts";
import { TmuxError } from "../../tmux/errors.ts";
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

/** A probe answers in a few ms; one that has not within this hung. */
const PROBE_LIMIT_MS = 3_000;

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

/** Facts of another server by socket (`-S path` or `-L name`), one tmux process; a dead or hung one is `alive: false`. */
export async function probeServer(socketArgs: string[], socketPath: string): Promise<ServerFacts> {
  const chained = COMMANDS.flatMap((command, i) => [...(i > 0 ? [";"] : []), ...command]);
  const out = await probeOnce([...socketArgs, ...chained]) ?? await probeOnce([...socketArgs, ...chained]);
  if (out === null || (out.code !== 0 && !out.stdout.startsWith("I\x1f"))) {
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

/**
 * One probe, or null when its client hung (a tmux 3.3a client now and then never runs its command
 * after connecting; see ONE_SHOT_LIMIT_MS). The probe only reads, so a hung one is tried again: a
 * listing of every server must not wait 30 s on one stuck client.
 */
async function probeOnce(args: string[]): Promise<OneShotResult | null> {
  try {
    return await tmuxOneShot(args, undefined, PROBE_LIMIT_MS);
  } catch (error) {
    if (error instanceof TmuxError && error.kind === "disconnected") return null;
    throw error;
  }
}

/** Ends a tmux server (its own process: the control connection on it ends with it). */
export async function killServer(socketArgs: string[]): Promise<void> {
  await tmuxOneShot([...socketArgs, "kill-server"]);
}
