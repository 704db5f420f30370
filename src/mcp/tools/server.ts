import { basename } from "node:path";
import { defineTool, READ_ONLY } from "../define.ts";
import type { ToolContext } from "../context.ts";
import {
  connectedServerFacts,
  killServer,
  listSocketPaths,
  probeServer,
  type ServerFacts,
} from "../../engine/servers/mod.ts";
import { assertNotCallerServer, assertNotSelf } from "../../safety/self_protection.ts";
import { ToolError } from "../../engine/errors.ts";
import * as patterns from "../../safety/patterns.ts";

const socketArg = patterns.socketArg.describe("socket name or path from list_servers; default: this server's");
const MAX_SERVERS = 64;

function summary(facts: ServerFacts, current: boolean): Record<string, unknown> {
  return {
    socket: basename(facts.socketPath),
    socket_path: facts.socketPath,
    alive: facts.alive,
    ...(facts.alive
      ? {
        pid: facts.pid,
        version: facts.version,
        started: facts.startTime ? new Date(facts.startTime * 1000).toISOString() : null,
        sessions: facts.sessions,
        windows: facts.windows,
        panes: facts.panes,
        clients: facts.clients,
      }
      : {}),
    current,
  };
}

/** The tmux server `socket` names (name: `-L`, path: `-S`), or the connected one; with whether it is that one. */
async function serverFacts(
  ctx: ToolContext,
  socket?: string,
): Promise<{ facts: ServerFacts; args: string[]; current: boolean }> {
  const own = ctx.workspace.socketPath;
  if (socket === undefined) {
    const facts = await connectedServerFacts(ctx.tmux);
    return { facts, args: [...ctx.app.config.socketArgs], current: true };
  }
  const args = socket.startsWith("/") ? ["-S", socket] : ["-L", socket];
  const facts = await probeServer(args, socket);
  if (!facts.alive) {
    throw new ToolError("NOT_FOUND", `No tmux server answers on socket ${JSON.stringify(socket)}`, "Use list_servers.");
  }
  return { facts, args, current: own !== null && facts.socketPath === own };
}

/** tmux servers: list the ones this user can reach, describe one, end one. */
export const serverTools = [
  defineTool({
    name: "list_servers",
    title: "List servers",
    description: "tmux servers this user can reach (sockets), alive or stale, with pid, version, session count.",
    profile: "all",
    group: "server",
    tier: "readonly",
    annotations: READ_ONLY,
    input: {},
    async handler(_args, ctx) {
      await ctx.tmux.run("display-message", "-p", "ok"); // connected: the own socket path is known
      const own = ctx.workspace.socketPath;
      const found = await listSocketPaths(ctx.tmux, ctx.app.config.stateDir, own);
      const paths = found.slice(0, MAX_SERVERS);
      const servers = await Promise.all(
        paths.map(async (path) =>
          path === own
            ? summary({ ...await connectedServerFacts(ctx.tmux), socketPath: path }, true)
            : summary(await probeServer(["-S", path], path), false)
        ),
      );
      // Old sockets of ended servers pile up (tmux leaves them): say how many were not probed.
      return { servers, ...(found.length > paths.length ? { not_probed: found.length - paths.length } : {}) };
    },
  }),
  defineTool({
    name: "get_server_info",
    title: "Server info",
    description: "A tmux server's pid, version, start time, socket and counts of sessions, windows, panes, clients.",
    profile: "all",
    group: "server",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { socket: socketArg.optional() },
    async handler(args, ctx) {
      const { facts, current } = await serverFacts(ctx, args.socket);
      return summary({ ...facts, socketPath: facts.socketPath || (ctx.workspace.socketPath ?? "") }, current);
    },
  }),
  defineTool({
    name: "kill_server",
    title: "Kill server",
    description: "End a tmux server and everything in it. Never the one tmuxwright itself runs in.",
    profile: "all",
    group: "server",
    tier: "destructive",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: { socket: socketArg.optional() },
    async handler(args, ctx) {
      const { facts, args: socketArgs, current } = await serverFacts(ctx, args.socket);
      const { caller } = ctx.app.config;
      if (current) await assertNotSelf(ctx.tmux, caller, { kind: "server" }, "kill");
      assertNotCallerServer(caller, facts, "kill");
      await killServer(socketArgs);
      if (current) ctx.tmux.kill(); // drop the dead connection now, so the next call reconnects at once
      return {
        socket_path: facts.socketPath || ctx.workspace.socketPath,
        pid: facts.pid,
        killed: true,
        ...(current ? { note: "this was tmuxwright's own server; the next call starts a new one" } : {}),
      };
    },
  }),
];
