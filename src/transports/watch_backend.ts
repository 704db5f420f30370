import type { App } from "../app.ts";
import { listPanes, type PaneInfo, resolvePane } from "../engine/panes/mod.ts";
import { probePaneStatus } from "../engine/watch/mod.ts";
import { logSize } from "../engine/output/mod.ts";
import type { TmuxServer } from "../tmux/server.ts";
import type { WatchBackend, WatchFollow, WatchMark, WatchQuestion, WatchScreen } from "../http/watch/backend.ts";
import { FETCH_MS, WatchFleet, watchPane } from "./watch_fleet.ts";
import { withLastLines } from "./watch_last_lines.ts";

/** A remote pane outside the link's hub session sends no `%output` over the link: its screen is read this often. */
const REDRAW_MS = 1000;

/**
 * /watch over the app: every pane of every host (workspace hubs left out), read-only. This
 * machine's panes are listed at once; each remote host's come from the fleet's bounded background
 * fetches, so a host that is down shows its state and never slows the page.
 */
export function watchBackend(app: App): WatchBackend {
  const fleet = new WatchFleet(app);
  /** tmux's facts of this machine's panes as last listed (the wall's probes and marks start from them). */
  let local = new Map<string, PaneInfo>();
  const info = (paneId: string) => split(paneId).host === "local" ? local.get(paneId) ?? null : fleet.info(paneId);
  const linkOf = (host: string) => host === "local" ? app.tmux : app.hosts.link(host);
  return {
    async panes() {
      const listed = (await listPanes(app.tmux)).filter((p) => !p.hub);
      local = new Map(listed.map((p) => [p.paneId, p]));
      return [...listed.map((p) => watchPane(p, "local")), ...fleet.panes()];
    },
    hosts: () => fleet.hosts(),
    onPanesChanged(listener) {
      const stops = [
        app.events.subscribe((event) => {
          if (event.kind === "panes-changed" && event.host === undefined) listener();
        }),
        fleet.onChange(listener),
      ];
      return () => stops.forEach((stop) => stop());
    },
    questions: () =>
      app.gate.questions.list().map((q): WatchQuestion => ({
        pane_id: q.pane === null ? null : q.host === "local" ? q.pane : `${q.host}:${q.pane}`,
        host: q.host,
        command: q.command,
        tool: q.tool,
        agent: q.agent,
        since: q.since,
      })),
    onQuestions: (listener) => app.gate.questions.onChange(listener),
    async probe(paneId, question) {
      const pane = info(paneId);
      if (!pane) return null;
      const { host } = split(paneId);
      const services = host === "local" ? app : app.onHost(host);
      const probed = await bounded(probePaneStatus(services.proc, services.tmux, pane, { question })).catch(() => null);
      return probed?.status ?? null;
    },
    screen: (paneId) => {
      const { host, id } = split(paneId);
      return screen(linkOf(host), id);
    },
    mark(paneId) {
      const pane = info(paneId);
      if (!pane) return Promise.resolve(null);
      const { host, id } = split(paneId);
      if (host === "local") {
        if (!app.output.followsLog(pane)) return Promise.resolve(null);
        const path = pane.logPath!;
        return Promise.resolve({ version: () => logSize(path), close() {} });
      }
      if (pane.sessionName !== app.hosts.hubSession) return Promise.resolve(null);
      return Promise.resolve(outputCounter(linkOf(host), id));
    },
    async follow(paneId, onBytes, onRedraw) {
      const { host, id } = split(paneId);
      if (host === "local") {
        const pane = await resolvePane(app.tmux, id, app.workspace.instance).catch(() => null);
        if (!pane) return null;
        return await app.output.subscribe(pane, (bytes) => onBytes(bytes));
      }
      return await followRemote(app.hosts.link(host), app.hosts.hubSession, id, onBytes, onRedraw);
    },
  };
}

function split(paneId: string): { host: string; id: string } {
  const at = paneId.lastIndexOf(":");
  return at < 0 ? { host: "local", id: paneId } : { host: paneId.slice(0, at), id: paneId.slice(at + 1) };
}

/** A remote pane in the link's session: its `%output` already comes over the link, counted here. */
function outputCounter(link: TmuxServer, id: string): WatchMark {
  let bytes = 0;
  const stop = link.onOutput((pane, chunk) => {
    if (pane === id) bytes += chunk.length;
  });
  return { version: () => Promise.resolve(bytes), close: stop };
}

/**
 * A remote pane's bytes. The link is attached to its hub session with output on, so tmux sends
 * `%output` for every pane there (any owner's); for a pane in another session it sends none, and
 * its screen, read every second, is sent again whenever it changed.
 */
async function followRemote(
  link: TmuxServer,
  hub: string,
  id: string,
  onBytes: (bytes: Uint8Array) => void,
  onRedraw: () => void,
): Promise<WatchFollow | null> {
  const session = await bounded(link.run("display-message", "-p", "-t", id, "#{pane_id} #{session_name}"))
    .catch(() => []);
  const [found, name] = (session[0] ?? "").split(" ");
  if (found !== id) return null;
  if (name === hub) return { close: link.onOutput((pane, bytes) => pane === id && onBytes(bytes)) };
  // The first look is the baseline (the page's first screen is read after it): any change is drawn.
  let last = (await screen(link, id).catch(() => null))?.lines.join("\n") ?? "";
  let busy = false;
  const timer = setInterval(async () => {
    if (busy || !link.connected) return;
    busy = true;
    const now = await screen(link, id).catch(() => null);
    busy = false;
    if (now && now.lines.join("\n") !== last) {
      last = now.lines.join("\n");
      onRedraw();
    }
  }, REDRAW_MS);
  return { close: () => clearInterval(timer) };
}

const SCREEN_FACTS = ["pane_id", "pane_width", "pane_height", "cursor_x", "cursor_y", "pane_dead", "@tmuxwright_log"]
  .map((field) => `#{${field}}`).join("\x1f");

/** The visible screen with its colours; a dead pane's with its last logged lines when tmux's lost them. */
async function screen(tmux: TmuxServer, paneId: string): Promise<WatchScreen | null> {
  // One pipelined pair: the facts and the rows come from the same moment of the pane.
  const [facts, rows] = await bounded(tmux.batch([
    ["display-message", "-p", "-t", paneId, SCREEN_FACTS],
    ["capture-pane", "-p", "-e", "-t", paneId],
  ])).catch(() => [[], []]);
  const [id, width, height, x, y, dead, log] = (facts[0] ?? "").split("\x1f");
  if (id !== paneId) return null;
  const shown = {
    cols: Number(width),
    rows: Number(height),
    lines: rows.slice(0, Number(height)),
    cursorX: Number(x),
    cursorY: Number(y),
  };
  return dead === "1" && log ? await withLastLines(shown, decodeLogPath(log)) : shown;
}

/** `@tmuxwright_log` holds the path URI-encoded (src/engine/panes/panes.ts). */
function decodeLogPath(stored: string): string | null {
  try {
    return decodeURIComponent(stored);
  } catch {
    return null;
  }
}

/** A host's answer, or a rejection once it has taken FETCH_MS (a black-holed link answers nothing). */
async function bounded<T>(reply: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error("slow")), FETCH_MS));
  try {
    return await Promise.race([reply, late]);
  } finally {
    clearTimeout(timer);
  }
}
