import { resolvePane } from "../../engine/panes/mod.ts";
import { args, type PromptDefinition } from "./define.ts";
import { describePane } from "./facts.ts";
import { paragraphs, steps } from "./text.ts";

/** Lines that usually mean something went wrong, for search_panes (no inline flags: any regex engine reads it). */
const ERROR_PATTERN = "[Ee]rror|ERROR|FAIL|[Ff]atal|Traceback|panic|[Ee]xception";

export const diagnoseFailingPane: PromptDefinition = {
  name: "diagnose_failing_pane",
  title: "Find out why a program in a pane failed",
  description: "Read a pane's state, output and log (or find the failing pane first) and explain the root cause.",
  args: [
    {
      name: "pane_id",
      description: "the pane that failed (%N or name); without it, find the pane first",
      required: false,
      schema: args.pane,
      complete: "pane",
    },
    {
      name: "session",
      description: "where to look for a failing pane when pane_id is not given",
      required: false,
      schema: args.session,
      complete: "session",
    },
  ],
  available: (t) => t.has("capture_pane") || t.has("read_logs"),
  async render(a, { app, tools: t }) {
    const pane = a.pane_id === undefined ? null : await resolvePane(app.tmux, a.pane_id, app.workspace.instance);
    const ref = pane?.paneId ?? "<the failing pane>";
    const logged = pane === null || pane.logPath !== null;
    const plan = steps([
      pane === null && t.has("list_panes") &&
      `Find the pane: ${t.call("list_panes", { session: a.session })} lists every pane with its status; ` +
        "exited panes with a non-zero exit_code are the first suspects.",
      pane === null && t.has("search_panes") &&
      `${t.call("search_panes", { pattern: ERROR_PATTERN, regex: true, session: a.session })} finds panes that ` +
        "printed errors.",
      t.has("pane_state") &&
      `${t.call("pane_state", { pane_id: ref })}: what runs in the foreground, whether it waits for input, ` +
        "its exit code.",
      t.has("capture_pane") &&
      `${t.call("capture_pane", { pane_id: ref, lines: 200 })}: the last output, also after the program exited.`,
      t.has("read_logs") && logged &&
      `${t.call("read_logs", { pane_id: ref, lines: 500 })}: everything the pane printed, from its log file ` +
        "(panes this server created; it works after the pane was closed). Look for the first error, not the last.",
    ]);
    return paragraphs(
      pane ? describePane(app, pane) : a.session && `Look in tmux session "${a.session}".`,
      pane
        ? `Find out why the program in pane ${pane.paneId} failed.`
        : "A program in one of the panes failed. Find which one, then why.",
      plan,
      "Then name the root cause, quote the output lines that show it, and propose a fix. Change nothing and re-run " +
        "nothing without asking.",
    );
  },
};
