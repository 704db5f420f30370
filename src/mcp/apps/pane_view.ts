import { statusText } from "../../engine/watch/mod.ts";

/**
 * The MCP App (the `@modelcontextprotocol/ext-apps` extension): a view an MCP Apps host renders
 * next to a pane tool's result. One self-contained HTML document (the terminal renderer and the
 * extension's App class inlined: hosts load it in a sandbox with no network). It shows the pane
 * of the tool result and follows it through the host's bridge with the read-only `capture_since`.
 * Without an MCP Apps host nothing changes: the tools' results are the same text.
 */
export const PANE_VIEW_URI = "ui://tmuxwright/pane-view.html";
export const PANE_VIEW_MIME = "text/html;profile=mcp-app";

/** Tools whose results a person wants to see as the pane itself. */
export const PANE_VIEW_TOOLS: ReadonlySet<string> = new Set([
  "execute_command",
  "start_process",
  "capture_pane",
  "snapshot_pane",
  "watch_pane",
  "send_keys",
  "create_pane",
  "capture_since",
]);

/** `_meta` of a tool that declares the view (tools/list). */
export const PANE_VIEW_META = Object.freeze({ ui: Object.freeze({ resourceUri: PANE_VIEW_URI }) });

// The view: the first capture_since gives the visible screen and a cursor; each later one the
// complete lines written since and the unfinished last line (`pending`), which is drawn and then
// drawn over when it comes again complete. Polled every 400 ms while the view is shown: a view
// cannot be pushed to, and capture_since is one cheap tmux call. The badge is the pane's state as
// /watch shows it (pane_state's status); without pane_state (core profile) it stays hidden.
const VIEW_JS = `"use strict";
(() => {
  const { App } = globalThis.McpExtApps;
  const status = document.getElementById("status");
  const badge = document.getElementById("badge");
  const statusText = ${statusText.toString()};
  const term = new Terminal({ disableStdin: true, screenReaderMode: true, cols: 100, rows: 24, scrollback: 5000 });
  term.open(document.getElementById("term"));
  const app = new App({ name: "tmuxwright pane", version: "1" }, {});
  let following = null;

  function paneOf(result) {
    const s = result && result.structuredContent;
    return s && typeof s.pane_id === "string" ? s.pane_id : null;
  }

  async function call(args) {
    const result = await app.callServerTool({ name: "capture_since", arguments: args });
    if (result.isError) throw new Error((result.content && result.content[0] && result.content[0].text) || "error");
    return result.structuredContent;
  }

  // The state is read (pane_state: a look at the pane's processes) once its output has been quiet for
  // 1 s after it changed, and every 15 s otherwise: a chat full of views costs little.
  async function watchState(me) {
    let readAt = -Infinity;
    while (following === me) {
      const now = performance.now();
      const due = readAt === -Infinity || (me.wroteAt > readAt && now - me.wroteAt >= 1000) || now - readAt >= 15000;
      if (due) {
        readAt = now;
        let result;
        try {
          result = await app.callServerTool({ name: "pane_state", arguments: { pane_id: me.paneId } });
        } catch {
          badge.hidden = true;
          return;
        }
        if (following !== me) return;
        const s = result.structuredContent && result.structuredContent.status;
        const gone = result.isError && /PANE_NOT_FOUND|not found|no such pane/i.test(JSON.stringify(result.content));
        if (!s && !gone) { badge.hidden = true; return; }
        const shown = s || { state: "gone", command: null, exit_code: null, needs_person: false };
        badge.textContent = statusText(shown);
        badge.dataset.state = shown.state;
        badge.dataset.needs = shown.needs_person ? "true" : "false";
        badge.hidden = false;
        if (gone) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  function draw(lines, pending) {
    term.write("\\r\\x1b[K" + lines.map((l) => l + "\\r\\n").join("") + pending);
  }

  async function follow(paneId) {
    const me = following = { paneId, wroteAt: -Infinity };
    document.body.dataset.pane = paneId;
    status.textContent = paneId;
    watchState(me);
    let first;
    try {
      first = await call({ pane_id: paneId });
    } catch (error) {
      status.textContent = paneId + ": " + error.message;
      return;
    }
    term.reset();
    const screen = first.text.split("\\n");
    term.write(screen.join("\\r\\n"));
    document.body.dataset.ready = "true";
    let cursor = first.cursor;
    let pending = "";
    while (following === me) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      if (following !== me) return;
      let next;
      try {
        next = await call({ cursor });
      } catch (error) {
        status.textContent = paneId + ": " + error.message;
        return;
      }
      cursor = next.cursor;
      const lines = next.text === "" ? [] : next.text.replace(/\\n$/, "").split("\\n");
      if (next.lines_missed) {
        term.reset();
        term.write(lines.join("\\r\\n"));
        me.wroteAt = performance.now();
        continue;
      }
      if (lines.length > 0 || next.pending !== pending) {
        draw(lines, next.pending || "");
        me.wroteAt = performance.now();
      }
      pending = next.pending || "";
    }
  }

  app.ontoolresult = (result) => {
    const paneId = paneOf(result);
    if (paneId && (!following || following.paneId !== paneId)) follow(paneId);
  };
  app.connect().catch((error) => { status.textContent = "not connected: " + error.message; });
})();
`;

const CSS = `body { margin: 0; background: #000; color: #ddd; font: 12px system-ui, sans-serif; }
#bar { display: flex; gap: 8px; padding: 2px 6px; background: #1b1b1b; }
#badge { margin-left: auto; padding: 0 6px; border-radius: 3px; background: #263; color: #cfc; }
#badge[data-state="idle"], #badge[data-state="exited"], #badge[data-state="gone"] { background: #333; color: #ccc; }
#badge[data-needs="true"] { background: #a40; color: #fff; }`;

/**
 * The view document (~0.8 MB; served as the resource's text). Its vendored parts are loaded on the
 * first read, so a server that is never asked for the view never loads them (start-up time).
 */
export async function paneViewHtml(): Promise<string> {
  const [{ XTERM_CSS, XTERM_JS }, { EXT_APPS_JS }] = await Promise.all([
    import("../../vendor/xterm_assets.ts"),
    import("../../vendor/ext_apps_assets.ts"),
  ]);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tmuxwright pane</title>
<style>${XTERM_CSS}</style>
<style>${CSS}</style>
</head>
<body>
<div id="bar"><span id="status" role="status">waiting for a tool result…</span><span id="badge" role="status" hidden></span></div>
<div id="term"></div>
<script>${escapeScript(XTERM_JS)}</script>
<script>${escapeScript(EXT_APPS_JS)}</script>
<script>${VIEW_JS}</script>
</body>
</html>
`;
}

/** Inline script text cannot contain `</script`: the HTML parser would end the element there. */
function escapeScript(js: string): string {
  return js.replace(/<\/(script)/gi, "<\\/$1");
}
