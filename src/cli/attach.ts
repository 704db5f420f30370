import type { Config } from "../config.ts";
import { tmuxOneShot } from "../tmux/oneshot.ts";
import { listWorkspaces, type WorkspaceInfo } from "../engine/workspaces/mod.ts";

interface Listed extends WorkspaceInfo {
  /** Names (or ids) of the panes in the session, hub left out. */
  panes: string[];
}

/**
 * `tmuxwright attach [WORKSPACE] [--list]`: puts this terminal, read-only, on a workspace so a
 * person can watch. Without WORKSPACE: the newest whose server is running. `--list`: a table of
 * every workspace on the tmux server. Not on a terminal: prints the tmux command instead.
 */
export async function attach(config: Readonly<Config>): Promise<number> {
  if (config.hostTarget !== null) return await (await import("./remote.ts")).attachHost(config);
  const workspaces = await listed(config);
  if (config.attachList) {
    if (workspaces.length === 0) console.log(noneText(config));
    else console.log(table(workspaces));
    return workspaces.length === 0 ? 1 : 0;
  }
  if (workspaces.length === 0) {
    console.error(noneText(config));
    return 1;
  }
  const target = config.attachTarget === null ? pickNewest(workspaces) : pick(workspaces, config.attachTarget);
  if (target === null) {
    console.error(`No workspace "${config.attachTarget}" on this tmux server. Workspaces:\n${table(workspaces)}`);
    return 1;
  }
  const others = workspaces.length - 1;
  console.error(
    `Attaching read-only to ${describe(target)}` +
      (others > 0 ? `; ${others} other workspace${others > 1 ? "s" : ""}: tmuxwright attach --list` : ""),
  );
  const args = [...config.socketArgs, "attach-session", "-r", "-t", target.sessionId];
  if (!Deno.stdin.isTerminal()) {
    console.log(["tmux", ...config.socketArgs, "attach-session", "-r", "-t", `=${target.name}`].join(" "));
    return 0;
  }
  const status = await new Deno.Command("tmux", { args, stdin: "inherit", stdout: "inherit", stderr: "inherit" })
    .spawn().status;
  return status.code;
}

async function listed(config: Readonly<Config>): Promise<Listed[]> {
  const workspaces = await listWorkspaces(config.socketArgs, config.stateDir);
  const out = await tmuxOneShot([
    ...config.socketArgs,
    "list-panes",
    "-a",
    "-F",
    "#{session_id}\x1f#{pane_id}\x1f#{@tmuxwright_name}\x1f#{@tmuxwright_hub}",
  ]);
  const panes = new Map<string, string[]>();
  for (const line of out.stdout.split("\n")) {
    const [session, id, name, hub] = line.split("\x1f");
    if (!id || hub === "1") continue;
    const list = panes.get(session) ?? [];
    list.push(name ? safeName(name) : id);
    panes.set(session, list);
  }
  return workspaces.map((w) => ({ ...w, panes: panes.get(w.sessionId) ?? [] }));
}

/** Running servers first (and those whose liveness this state directory cannot judge), newest first. */
function pickNewest(workspaces: Listed[]): Listed {
  const rank = (w: Listed) => (w.kept ? 2 : w.owner === "alive" ? 0 : w.owner === "unknown" ? 1 : 3);
  return [...workspaces].sort((a, b) => rank(a) - rank(b))[0]; // stable: newest first within a rank
}

function pick(workspaces: Listed[], target: string): Listed | null {
  const name = target.startsWith("tmuxwright-") ? target : `tmuxwright-${target}`;
  return workspaces.find((w) => w.name === name) ?? workspaces.find((w) => String(w.pid) === target) ?? null;
}

function status(w: Listed): string {
  if (w.kept) return "kept";
  return { alive: "running", dead: "exited", unknown: "unknown" }[w.owner];
}

function describe(w: Listed): string {
  const panes = w.panes.length === 0 ? "no panes yet" : `panes: ${w.panes.join(", ")}`;
  return `${w.name} (server pid ${w.pid ?? "?"}, ${status(w)}, ${panes})`;
}

function table(workspaces: Listed[]): string {
  const rows = [["WORKSPACE", "PID", "SERVER", "CREATED", "PANES"]];
  for (const w of workspaces) {
    const created = localTime(new Date(w.created * 1000));
    rows.push([w.name, String(w.pid ?? "?"), status(w), created, w.panes.join(", ") || "-"]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => i === r.length - 1 ? cell : cell.padEnd(widths[i])).join("  ")).join(
    "\n",
  );
}

function localTime(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

function noneText(config: Readonly<Config>): string {
  return "No tmuxwright workspace is running on this tmux server" +
    (config.socketArgs.length === 0 ? " (for another socket, pass --socket or --socket-path)." : ".");
}

/** Names are the agent's text: URI-decoded, with control characters shown as spaces. */
function safeName(stored: string): string {
  let name = stored;
  try {
    name = decodeURIComponent(stored);
  } catch { /* shown as stored */ }
  // deno-lint-ignore no-control-regex
  return name.replace(/[\x00-\x1f\x7f]/g, " ").slice(0, 40);
}
