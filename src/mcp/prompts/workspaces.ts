import { ToolError } from "../../engine/errors.ts";
import * as patterns from "../../safety/patterns.ts";
import { args, type PromptDefinition, type ToolNames } from "./define.ts";
import { liveWindow } from "./facts.ts";
import { fence, paragraphs, shellQuote, steps } from "./text.ts";
import type { App } from "../../app.ts";

const MAX_SERVICES = 12;

interface Service {
  name: string;
  command: string;
}

/** `name: command`, one per line. */
function parseServices(text: string): Service[] {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
  const services = lines.map((line, i) => {
    const match = /^([^:]+):\s*(.+)$/.exec(line);
    const name = match?.[1].trim() ?? "";
    if (!match || !patterns.NAME.test(name) || /^[%@$]/.test(name)) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `Invalid services line ${i + 1}: expected "name: command" with a name of letters, digits, _ . -`,
        'Write one service per line, e.g. "web: npm run dev".',
      );
    }
    return { name, command: match[2] };
  });
  if (services.length === 0 || services.length > MAX_SERVICES) {
    throw new ToolError("INVALID_ARGUMENT", `Invalid services: give 1 to ${MAX_SERVICES} lines "name: command"`);
  }
  return services;
}

/** Where new panes go: a fresh window each (default), or splits of an existing window's active pane. */
async function placement(app: App, t: ToolNames, window: string | undefined) {
  if (window === undefined) return null;
  const found = await liveWindow(app, window);
  const active = found.panes.find((p) => p.active) ?? found.panes[0];
  return {
    intro: `Put the panes in window ${found.windowId} (${found.sessionName}:${found.index}) by splitting its ` +
      `active pane ${active.paneId}.`,
    split: (name: string, direction: string) => t.call("split_pane", { pane_id: active.paneId, direction, name }),
  };
}

const cwdArg = patterns.absolutePathArg;

export const buildDevWorkspace: PromptDefinition = {
  name: "build_dev_workspace",
  title: "Start a development workspace",
  description: "Start each service of a project in its own named pane, wait until each is ready, and report.",
  args: [
    {
      name: "services",
      description: 'one service per line, "name: command", e.g. "web: npm run dev"',
      required: true,
      schema: args.lines,
    },
    { name: "cwd", description: "absolute directory the services run in", required: false, schema: cwdArg },
    {
      name: "window",
      description: "an existing window (@N or session:index) to split for the panes; default: new windows",
      required: false,
      schema: args.window,
      complete: "window",
    },
  ],
  available: (t) => t.has("start_process") || t.has("create_pane", "capture_pane"),
  async render(a, { app, tools: t }) {
    const services = parseServices(a.services!);
    const where = t.has("split_pane", "start_process") ? await placement(app, t, a.window) : null;
    const inDir = (command: string) => a.cwd === undefined ? command : `cd ${shellQuote(a.cwd)} && ${command}`;
    const start = (s: Service) =>
      t.has("start_process")
        ? where
          ? `${where.split(s.name, "right")}, then ${
            t.call("start_process", { pane_id: s.name, command: inDir(s.command), ready: "<its ready line>" })
          }`
          : t.call("start_process", { command: inDir(s.command), name: s.name, ready: "<its ready line>" })
        : t.call("create_pane", { command: s.command, name: s.name, cwd: a.cwd });
    const plan = steps([
      ...services.map((s) => `${s.name}: ${start(s)}`),
      t.has("start_process") &&
      'Set `ready` to a regex for the line the program prints once it is up (e.g. "Listening on|ready in"), or ' +
        "leave it out when you do not know it; `outcome` then says ready, exited (with last_lines) or timeout.",
      !t.has("start_process") &&
      `Check each pane with ${t.call("capture_pane", { pane_id: services[0].name, lines: 40 })}.`,
      "If a service exited or timed out, read why" +
      (t.has("read_logs") ? ` (${t.call("read_logs", { pane_id: services[0].name, lines: 200 })})` : "") +
      " and report it rather than retrying blindly.",
      t.has("list_panes") && `Finish with ${t.call("list_panes", { owned_only: true })}.`,
    ]);
    return paragraphs(
      "Start a development workspace: one named pane per service, each checked before the next.",
      services.map((s) => `- ${s.name}: \`${s.command}\``).join("\n"),
      a.cwd && `All services run in ${a.cwd}.`,
      where?.intro,
      plan,
      "Tell the user the attach_command from the results, so they can watch the services live.",
    );
  },
};

export const debugWithPanes: PromptDefinition = {
  name: "debug_with_panes",
  title: "Debug a program with panes",
  description: "Run a program with its debug output in one pane, exercise it from another, and read what it " +
    "printed after each step.",
  args: [
    { name: "command", description: "the program to debug, e.g. a server", required: true, schema: args.command },
    {
      name: "client_command",
      description: "a command that exercises it (a request, a test)",
      required: false,
      schema: args.command,
    },
    { name: "ready", description: "regex for the line it prints once it is up", required: false, schema: args.regex },
    {
      name: "window",
      description: "an existing window (@N or session:index) to split for the panes; default: new windows",
      required: false,
      schema: args.window,
      complete: "window",
    },
  ],
  available: (t) => t.has("start_process", "execute_command") || t.has("create_pane", "send_keys", "capture_pane"),
  async render(a, { app, tools: t }) {
    const where = t.has("split_pane") ? await placement(app, t, a.window) : null;
    const server = "debug-server";
    const client = a.client_command ?? "<a request or test that exercises it>";
    const full = t.has("start_process", "execute_command");
    const plan = full
      ? steps([
        (where ? `${where.split(server, "right")}, then ` : "") +
        t.call("start_process", {
          command: a.command,
          ...(where ? { pane_id: server } : { name: server }),
          ready: a.ready,
        }) +
        ". Turn on the program's debug logging (a flag or an environment variable) if it has one.",
        t.has("capture_since") && `${t.call("capture_since", { pane_id: server })} once, to get a cursor.`,
        `Exercise it: ${where ? `${where.split("debug-client", "below")}, then ` : ""}${
          t.call("execute_command", { command: client, pane_id: where ? "debug-client" : undefined })
        }.`,
        t.has("capture_since") &&
        `Read only what the program printed since: ${t.call("capture_since", { cursor: "<the last cursor>" })}.`,
        t.has("wait_for_text", "watch_pane") &&
        `${t.call("wait_for_text", { pane_id: server, pattern: "<a log line>" })} waits for a specific line; ` +
          `${t.call("watch_pane", { pane_id: server, triggers: ["exit", "error"] })} catches a crash.`,
        t.has("read_logs") &&
        `After a crash, ${t.call("read_logs", { pane_id: server, lines: 300 })} has everything it printed.`,
        t.has("stop_process") &&
        `To try a change: ${t.call("stop_process", { pane_id: server })}, edit, start it again, repeat. Stop it ` +
          "when you are done.",
      ])
      : steps([
        t.call("create_pane", { command: a.command, name: server }),
        t.call("create_pane", { name: "debug-client" }),
        `Exercise it: ${t.call("send_keys", { pane_id: "debug-client", text: client })}.`,
        `Read what each printed: ${t.call("capture_pane", { pane_id: server, lines: 100 })} and the same for ` +
        "debug-client.",
      ]);
    return paragraphs(
      `Debug this program with panes: it runs in one pane with its debug output visible, you exercise it from ` +
        `another, and you read what it printed after each step.\n${fence(a.command!)}`,
      a.ready && `It is up once a line matches /${a.ready}/.`,
      where?.intro,
      plan,
      `If the name "${server}" is taken, pick another. Explain each finding with the output lines that show it.`,
    );
  },
};
