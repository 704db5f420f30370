import { resolvePane } from "../../engine/panes/mod.ts";
import { args, type PromptDefinition } from "./define.ts";
import { describePane } from "./facts.ts";
import { fence, number, paragraphs, steps } from "./text.ts";

export const runAndWait: PromptDefinition = {
  name: "run_and_wait",
  title: "Run a command and wait for its result",
  description: "Run a shell command in a pane, wait until it finishes, and report its output and exit code.",
  args: [
    { name: "command", description: "the shell command to run", required: true, schema: args.command },
    {
      name: "pane_id",
      description: "pane to run it in (%N or name); default: a pane of this server",
      required: false,
      schema: args.pane,
      complete: "pane",
    },
    {
      name: "timeout_ms",
      description: "how long to wait in ms (default 30000)",
      required: false,
      schema: args.milliseconds,
    },
  ],
  available: (t) => t.has("execute_command") || t.has("create_pane", "send_keys", "capture_pane"),
  async render(a, { app, tools: t }) {
    const pane = a.pane_id === undefined ? null : await resolvePane(app.tmux, a.pane_id, app.workspace.instance);
    const target = a.pane_id ?? "run";
    const plan = t.has("execute_command")
      ? steps([
        `Call ${
          t.call("execute_command", { command: a.command, pane_id: a.pane_id, timeout_ms: number(a.timeout_ms) })
        }.` +
        " It waits for the command and returns only its output and its exit_code.",
        "If timed_out is true, the command was interrupted with Ctrl-C: say so and show the last output.",
        t.has("read_logs") && `If the output was truncated, ${t.call("read_logs", { pane_id: target })} has all of it.`,
      ])
      : steps([
        pane === null && `Open a pane: ${t.call("create_pane", { name: "run" })}.`,
        `Type the command: ${t.call("send_keys", { pane_id: target, text: a.command })} (Enter is pressed for you).`,
        `Read the output with ${t.call("capture_pane", { pane_id: target, lines: 100 })}; while the shell ` +
        "prompt has not come back, the command is still running: read again.",
        `Get its exit status: ${t.call("send_keys", { pane_id: target, text: "echo exit=$?" })}, then read again.`,
      ]);
    return paragraphs(
      pane && describePane(app, pane),
      `Run this command and report how it went:\n${fence(a.command!)}`,
      plan,
      "Report the exit code and the output that matters, errors first; quote lines rather than paraphrase them.",
    );
  },
};

export const interruptGracefully: PromptDefinition = {
  name: "interrupt_gracefully",
  title: "Stop what runs in a pane, gently first",
  description:
    "Interrupt the program in a pane with Ctrl-C, escalating to SIGTERM and SIGKILL only if it will not stop.",
  args: [
    { name: "pane_id", description: "the pane (%N or name)", required: true, schema: args.pane, complete: "pane" },
    {
      name: "grace_ms",
      description: "how long each signal gets to work, in ms (default 5000)",
      required: false,
      schema: args.milliseconds,
    },
  ],
  available: (t) => t.has("stop_process") || t.has("send_keys", "capture_pane"),
  async render(a, { app, tools: t }) {
    const pane = await resolvePane(app.tmux, a.pane_id!, app.workspace.instance);
    const grace = number(a.grace_ms) ?? 5000;
    const stop = (signal: string) => t.call("stop_process", { pane_id: pane.paneId, signal, timeout_ms: grace });
    const plan = t.has("stop_process")
      ? steps([
        `${stop("SIGINT")}: Ctrl-C, the way a person stops a program. If \`stopped\` is true, you are done.`,
        `Only if it did not stop: ${stop("SIGTERM")}.`,
        `Only if it still runs: ${stop("SIGKILL")}.`,
      ])
      : steps([
        `${t.call("send_keys", { pane_id: pane.paneId, keys: ["C-c"] })}, then ` +
        `${t.call("capture_pane", { pane_id: pane.paneId, lines: 30 })}: the shell prompt back means it stopped.`,
        `If not, press C-c once more, then ${t.call("send_keys", { pane_id: pane.paneId, keys: ["C-\\"] })} ` +
        "(SIGQUIT), reading the screen after each.",
      ]);
    const foreign = !app.workspace.isOwned(pane) &&
      "This pane was not created by this server: stopping its program needs safety tier destructive. " +
        "If the call is refused with TIER_DENIED, tell the user instead of working around it.";
    return paragraphs(
      describePane(app, pane),
      `Stop what runs in pane ${pane.paneId}, gently first, escalating only when needed:`,
      plan,
      foreign,
      "Do not close the pane: its output must stay readable. Report which signal stopped the program, its exit " +
        "code and its last lines.",
    );
  },
};
