import type { App } from "../app.ts";
import { CLIENT_INFO_META_KEY, type Implementation, type McpServer, type ServerContext } from "./sdk.ts";
import { digest } from "./process_key.ts";
import { answeredBy } from "./ask.ts";
import { WORKSPACE_ARG, WORKSPACE_META, type WorkspaceHandles } from "./workspace_handles.ts";

/** `legacy`: MCP 2025-11-25 and before (initialize, sessions); `modern`: 2026-07-28 (stateless). */
export type Era = "legacy" | "modern";

/** Who makes one call, and in which workspace. */
export interface Caller {
  /** The app as this caller sees it: its owner's names, panes and workspace. */
  readonly app: App;
  /** Command lines the person allowed for the rest of this session, connection or workspace. */
  readonly allowed: Set<string>;
  /** What sealed state and tasks are bound to: the connection, or the principal and workspace. */
  readonly who: string;
  /** Who answers the policy's questions, as the audit names them. */
  readonly by: string;
  /** 2026-era HTTP: the workspace handle every result hands back. */
  readonly workspace?: string;
  release(): void;
}

/**
 * What one MCP server serves (docs/design/mcp_2026.md): a connection (stdio in either era, a 2025
 * HTTP session), whose caller is the same for every call, or one 2026-era HTTP request, whose
 * caller is named by its workspace handle.
 */
export interface Unit {
  readonly era: Era;
  /** 2026-era HTTP: every tool also takes the `workspace` argument. */
  readonly listsWorkspace: boolean;
  caller(ctx: ServerContext, args: Record<string, unknown>): Promise<Caller>;
  /** Who this request's tasks belong to. */
  taskOwner(ctx: ServerContext): Promise<string>;
}

/** The client a request names in its envelope (2026), or the one that initialized the connection (2025). */
export function clientOf(server: McpServer, ctx: ServerContext): Implementation | undefined {
  return (ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY as never] as Implementation | undefined) ??
    server.server.getClientVersion();
}

/** A connection's unit: one caller, the connection's app, for every call. */
export function connectionUnit(
  era: Era,
  server: McpServer,
  app: App,
  connectionId: string,
  sessionOf: (ctx: ServerContext) => string | null,
  /** Told the client of each call (a 2026-era connection names its agent from the first). */
  onClient: (client: Implementation | undefined) => void = () => {},
): Unit {
  const allowed = new Set<string>();
  const who = `connection ${connectionId}`;
  return {
    era,
    listsWorkspace: false,
    caller(ctx) {
      const client = clientOf(server, ctx);
      onClient(client);
      return Promise.resolve({ app, allowed, who, by: answeredBy(client, sessionOf(ctx)), release() {} });
    },
    taskOwner: () => Promise.resolve(who),
  };
}

/** A 2026-era HTTP request's unit: the caller's workspace from its handle, or a new one. */
export function requestUnit(server: McpServer, handles: WorkspaceHandles): Unit {
  return {
    era: "modern",
    listsWorkspace: true,
    async caller(ctx, args) {
      const principal = await principalOf(server, ctx);
      const client = clientOf(server, ctx);
      const lease = await handles.hold(handleOf(ctx, args), principal, client);
      return {
        app: { ...handles.app, owner: lease.owner, workspace: lease.owner.workspaceOn("local") },
        allowed: lease.allowed,
        who: `${principal}\0${lease.id}`,
        by: answeredBy(client, `workspace ${lease.id.slice(0, 8)}`),
        workspace: lease.handle,
        release: () => handles.release(lease),
      };
    },
    taskOwner: (ctx) => principalOf(server, ctx),
  };
}

/** The app of the workspace a 2026-era HTTP request's `_meta` handle names, or the process's (pane ids only). */
export async function appOfHandle(server: McpServer, handles: WorkspaceHandles, ctx: ServerContext): Promise<App> {
  const lease = await handles.peek(handleOf(ctx, {}), await principalOf(server, ctx));
  return lease ? { ...handles.app, owner: lease.owner, workspace: lease.owner.workspaceOn("local") } : handles.app;
}

/** The handle a 2026-era HTTP call passes back: its `workspace` argument, else its request `_meta`. */
export function handleOf(ctx: ServerContext, args: Record<string, unknown>): string | undefined {
  const value = args[WORKSPACE_ARG] ?? ctx.mcpReq._meta?.[WORKSPACE_META];
  return typeof value === "string" ? value : undefined;
}

/** Who a 2026-era HTTP request is: the bearer token it presents (as a digest) and its client's name. */
export async function principalOf(server: McpServer, ctx: ServerContext): Promise<string> {
  const token = ctx.http?.req?.headers.get("authorization") ?? "";
  return `${await digest(token)}\0${clientOf(server, ctx)?.name ?? ""}`;
}
