import { McpServer } from "./sdk.ts";
import { LazyJsonSchemaValidator } from "./validator.ts";
import { NAME, VERSION } from "../version.ts";
import type { App } from "../app.ts";
import { agentOf, type WorkspaceOwner } from "../engine/panes/mod.ts";
import { registerTools } from "./register.ts";
import { Connection } from "./connection.ts";
import { registerResources, type Subscriptions, TEMPLATE_URIS } from "./resources/mod.ts";
import { promptArgumentKind, registerPrompts, ToolNames } from "./prompts/mod.ts";
import { type KindOf, registerCompletion } from "./completion.ts";
import { forwardLogs } from "./logging.ts";
import { CHANNEL_CAPABILITY, forwardChannel } from "./channel.ts";
import { McpServices } from "./services.ts";
import { appOfHandle, connectionUnit, type Era, requestUnit } from "./unit.ts";
import { TASKS_EXTENSION } from "./tasks.ts";
import { PANE_VIEW_MIME } from "./apps/pane_view.ts";
import { WORKSPACE_ARG } from "./workspace_handles.ts";

/** For the core profile, which has only the five pane tools. */
export const CORE_INSTRUCTIONS = [
  "tmux terminals for agents. Pattern: act, then read.",
  "- create_pane opens a pane; send_keys types text (Enter by default) or presses keys like C-c.",
  "- capture_pane reads the last lines of output, also of exited panes; list_panes shows status and exit codes.",
  "- pane_id accepts %N or the name given at create_pane. A human can watch live: see attach_command.",
].join("\n");

export const INSTRUCTIONS = [
  "tmux terminals for agents. Pattern: act, then wait, then read.",
  "- Run a command and get its output and exit code: execute_command.",
  "- Long-running programs: start_process (with `ready` regex) in a named pane, stop_process to end.",
  "- Interactive: send_keys (text, or keys like C-c) then wait_for_text / watch_pane, then capture_pane or capture_since.",
  "- pane_id accepts %N or the name given at create_pane. Exited panes keep their output.",
  "- A human can watch live: see attach_command in create_pane results.",
].join("\n");

/** For a hand-picked set of groups without the agent tools. */
export const GROUP_INSTRUCTIONS = [
  "tmux for agents. Ids: pane %N (or its name), window @N (or session:index), session $N (or its name).",
  "Every result carries the ids of what it concerns; errors name the tool to call next.",
].join("\n");

/** Profile all adds the tmux primitives: one more line on their vocabulary. */
export const ALL_INSTRUCTIONS = INSTRUCTIONS + "\n" +
  "- tmux primitives: session = name or $N, window = @N or session:index; write_to_display leaves notes for the human.";

function instructions(config: App["config"]): string {
  if (config.tools === "core") return CORE_INSTRUCTIONS;
  if (config.tools === "all") return ALL_INSTRUCTIONS;
  return config.tools === null ? GROUP_INSTRUCTIONS : INSTRUCTIONS;
}

/** Said only with --channel, so the model knows what the pushed events are. */
export const CHANNEL_INSTRUCTIONS =
  "- Events arrive as <channel> messages: a watch_pane trigger fired, or a start_process program became ready or " +
  "exited (meta: pane_id, event, detail, exit_code).";

/** Said only to 2026-era HTTP callers, who carry their workspace between stateless requests. */
export const WORKSPACE_INSTRUCTIONS =
  `- Every result carries \`${WORKSPACE_ARG}\`: pass it back in every call, or your panes and names are not yours.`;

/** The MCP Apps extension as the 2026-07-28 revision names it (the pane view). */
const UI_EXTENSION = "io.modelcontextprotocol/ui";

export interface ServerOptions {
  /** The connection's own owner and workspace (a 2025 HTTP session), ended when it closes. */
  ownWorkspace?: boolean;
  /** The owner's panes carry the client's name (default: stdio's one client, an HTTP session's own owner). */
  namesOwner?: boolean;
  /** The protocol era this server speaks (the serving entry knows it; default 2025). */
  era?: Era;
  /** A 2026-era HTTP request: its caller's workspace comes from its handle (needs `services.handles`). */
  perRequest?: boolean;
  /** What lives as long as the process; a fresh set when not given. */
  services?: McpServices;
  /** A 2026-era connection's subscriptions, for the transport to follow its `subscriptions/listen` streams. */
  onSubscriptions?: (subscriptions: Subscriptions) => void;
}

/**
 * The MCP server for one HTTP MCP session (2025 era): a workspace of its own (its own owner, ended
 * when the session ends), or the process owner's with --shared-workspace.
 */
export function createSessionServer(app: App, services?: McpServices): McpServer {
  const own = !app.config.sharedWorkspace;
  return createServer(app, { ownWorkspace: own, namesOwner: own, services });
}

/**
 * A fresh MCP server over the shared app for one serving unit (docs/design/mcp_2026.md): a stdio
 * connection in either era, a 2025 HTTP session, or one 2026-era HTTP request. What belongs to a
 * connection (resource subscriptions, its log level, its event stream listeners, with
 * `ownWorkspace` its owner and workspace) is released when it closes; the App's long-lived
 * services and the process's McpServices are shared. With `namesOwner` (default: stdio's one
 * client, an HTTP session's own owner), the panes the owner creates carry the client's name
 * (`@tmuxwright_agent`); the process owner shared by several HTTP sessions names no one.
 */
export function createServer(shared: App, options: ServerOptions = {}): McpServer {
  const era = options.era ?? "legacy";
  const services = options.services ?? new McpServices(shared);
  const perRequest = options.perRequest === true && services.handles !== null;
  const connection = new Connection();
  const app = options.ownWorkspace ? ownerView(shared, shared.newOwner()) : shared;
  // A failed end (tmux gone meanwhile) is logged: it must not end the server with every other session.
  const ended = (error: unknown) => console.error(`[tmuxwright] ending a session's workspace failed:`, error);
  if (options.ownWorkspace) connection.onClose(() => void app.owner.end().catch(ended));
  const { config } = app;
  const base = instructions(config);
  const server = new McpServer(
    { name: NAME, title: "tmuxwright", version: VERSION },
    {
      capabilities: {
        ...(era === "legacy" ? { logging: {} } : {}),
        tools: {},
        resources: { subscribe: true, listChanged: true },
        prompts: {},
        completions: {},
        ...(config.channel ? { experimental: { [CHANNEL_CAPABILITY]: {} } } : {}),
        ...(era === "modern"
          ? { extensions: { [UI_EXTENSION]: { mimeTypes: [PANE_VIEW_MIME] }, [TASKS_EXTENSION]: {} } }
          : {}),
      },
      instructions: [base, config.channel ? CHANNEL_INSTRUCTIONS : "", perRequest ? WORKSPACE_INSTRUCTIONS : ""]
        .filter(Boolean).join("\n"),
      jsonSchemaValidator: new LazyJsonSchemaValidator(),
      requestState: { verify: services.states.verify },
    },
  );
  const namesOwner = (options.namesOwner ?? true) && !perRequest;
  // No initialize in the 2026 era: every request names its client, and the first call names the owner's agent.
  let named = false;
  const nameAgent = (client: { name?: string } | undefined) => {
    if (named || !namesOwner || era === "legacy" || !client?.name) return;
    named = true;
    app.owner.nameAgent(agentOf(client));
  };
  const unit = perRequest ? requestUnit(server, services.handles!) : connectionUnit(
    era,
    server,
    app,
    connection.id,
    (ctx) => ctx.sessionId ? `MCP session ${ctx.sessionId}` : null,
    nameAgent,
  );
  const listed = registerTools(server, app, services.tools, {
    origin: connection.id,
    unit,
    states: services.states,
    tasks: era === "modern" ? { table: services.tasks, afterMs: services.taskAfterMs } : undefined,
    onRefused: (tool, error) =>
      app.events.log("warning", "safety", `refused ${tool}: ${error.code}: ${error.message}`, connection.id),
  });
  if (era === "modern") services.tasks.register(server, (ctx) => unit.taskOwner(ctx));
  const tools = new ToolNames(config.toolPrefix, listed);
  const subscriptions = registerResources(server, app, connection, {
    era,
    perRequest,
    appOf: perRequest ? (ctx) => appOfHandle(server, services.handles!, ctx) : undefined,
  });
  if (subscriptions && era === "modern") options.onSubscriptions?.(subscriptions);
  registerPrompts(server, app, tools);
  registerCompletion(server, app, completionKind);
  // Log events are not tied to a request: the 2026 era has no stream for them (stderr keeps them).
  if (era === "legacy") forwardLogs(server, app, connection);
  if (config.channel && !perRequest) forwardChannel(server, app, connection);

  if (namesOwner && era === "legacy") {
    server.server.oninitialized = () => app.owner.nameAgent(agentOf(server.server.getClientVersion()));
  }
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    connection.close();
  };
  return server;
}

/**
 * The app as one connection sees it: every service shared, but `owner` and `workspace` (names,
 * `owned`, tiers and self-protection, where new panes go) those of the connection's own owner.
 */
function ownerView(app: App, owner: WorkspaceOwner): App {
  return { ...app, owner, workspace: owner.workspaceOn("local") };
}

const completionKind: KindOf = (ref, argument) => {
  if (ref.type === "prompt") return promptArgumentKind(ref.name, argument);
  if (!(TEMPLATE_URIS as readonly string[]).includes(ref.uri)) return ref.uri.startsWith("tmux://") ? null : undefined;
  return argument === "pane_id" ? "pane" : null;
};
