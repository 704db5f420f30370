import type { App } from "../app.ts";
import { listPanes, type PaneInfo, resolvePane } from "../engine/panes/mod.ts";
import type { WatchBackend, WatchPane, WatchScreen } from "../http/watch/backend.ts";

/** /watch over the app: every pane of the tmux server (workspace hubs left out), read-only. */
export function watchBackend(app: App): WatchBackend {
  return {
    async panes() {
      return (await listPanes(app.tmux)).filter((p) => !p.hub).map(watchPane);
    },
    onPanesChanged(listener) {
      return app.events.subscribe((event) => {
        if (event.kind === "panes-changed") listener();
      });
    },
    screen: (paneId) => screen(app, paneId),
    async follow(paneId, onBytes) {
      const pane = await resolvePane(app.tmux, paneId, app.workspace.instance).catch(() => null);
      if (!pane) return null;
      return await app.output.subscribe(pane, (bytes) => onBytes(bytes));
    },
  };
}

function watchPane(p: PaneInfo): WatchPane {
  return {
    pane_id: p.paneId,
    name: p.name,
    session: p.sessionName,
    window_index: p.windowIndex,
    workspace: p.workspace,
    command: p.command,
    title: p.title,
    status: p.dead ? "exited" : "running",
    ...(p.dead && p.exitCode !== null ? { exit_code: p.exitCode } : {}),
    width: p.width,
    height: p.height,
  };
}

const SCREEN_FACTS = "#{pane_id}\x1f#{pane_width}\x1f#{pane_height}\x1f#{cursor_x}\x1f#{cursor_y}";

/** The visible screen with its colours, as bytes a terminal of the pane's size draws the same. */
async function screen(app: App, paneId: string): Promise<WatchScreen | null> {
  // One pipelined pair: the facts and the rows come from the same moment of the pane.
  const [facts, rows] = await app.tmux.batch([
    ["display-message", "-p", "-t", paneId, SCREEN_FACTS],
    ["capture-pane", "-p", "-e", "-t", paneId],
  ]).catch(() => [[], []]);
  const [id, width, height, x, y] = (facts[0] ?? "").split("\x1f");
  if (id !== paneId) return null;
  const visible = rows.slice(0, Number(height));
  return {
    cols: Number(width),
    rows: Number(height),
    text: visible.join("\x1b[0m\r\n") + `\x1b[0m\x1b[${Number(y) + 1};${Number(x) + 1}H`,
  };
}
