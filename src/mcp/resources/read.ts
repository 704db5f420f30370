import type { App } from "../../app.ts";
import type { ReadResourceResult, Resource } from "../sdk.ts";
import { paneSummary } from "../results.ts";
import { capturePane, listPanes, listTree, type PaneInfo, resolvePane } from "../../engine/panes/mod.ts";
import { type LogScope, readTail, resolveLog } from "../../engine/logs/mod.ts";
import { paneUri, parseUri, SESSIONS_URI } from "./uris.ts";

/** What a content resource holds: the last lines of output, as capture_pane reads them. */
export const CONTENT_LINES = 200;
/** What a log resource holds: the last lines of the pane's durable log, ANSI stripped. */
export const LOG_LINES = 500;

const JSON_TYPE = "application/json";
const TEXT_TYPE = "text/plain";

/** Where a pane's log is looked up: this server's state directory, tmux socket and workspace. */
export function logScope(app: App): LogScope {
  return {
    stateDir: app.config.stateDir,
    socketPath: () => app.workspace.socketPath,
    instance: app.workspace.instance,
  };
}

/** `resources/read`: the sessions tree, one pane's facts, its recent output, or its log's tail. */
export async function readResource(app: App, uri: string): Promise<ReadResourceResult> {
  const target = parseUri(uri);
  const one = (mimeType: string, text: string): ReadResourceResult => ({ contents: [{ uri, mimeType, text }] });
  switch (target.kind) {
    case "sessions":
      return one(JSON_TYPE, JSON.stringify(await sessionsDocument(app)));
    case "pane": {
      const pane = await resolvePane(app.tmux, target.ref, app.workspace.instance);
      return one(JSON_TYPE, JSON.stringify(paneDocument(app, pane)));
    }
    case "content": {
      const pane = await resolvePane(app.tmux, target.ref, app.workspace.instance);
      return one(TEXT_TYPE, (await capturePane(app.tmux, pane, { lines: CONTENT_LINES })).text);
    }
    case "log": {
      const log = await resolveLog(app.tmux, logScope(app), target.ref);
      return one(TEXT_TYPE, (await readTail(log.logPath, LOG_LINES, true)).lines.join("\n"));
    }
  }
}

async function sessionsDocument(app: App) {
  const sessions = await listTree(app.tmux);
  return {
    sessions: sessions.map((s) => ({
      session_id: s.sessionId,
      name: s.name,
      attached: s.attached,
      windows: s.windows
        .map((w) => ({ ...w, panes: w.panes.filter((p) => !app.workspace.isHub(p)) }))
        .filter((w) => w.panes.length > 0)
        .map((w) => ({
          window_id: w.windowId,
          index: w.index,
          name: w.name,
          active: w.active,
          panes: w.panes.map((p) => ({ ...paneSummary(app, p), uri: paneUri(p.paneId, "pane") })),
        })),
    })),
  };
}

function paneDocument(app: App, pane: PaneInfo) {
  return {
    ...paneSummary(app, pane),
    session_name: pane.sessionName,
    window_index: pane.windowIndex,
    pane_index: pane.paneIndex,
    logged: pane.logPath !== null,
    content_uri: paneUri(pane.paneId, "content"),
    ...(pane.logPath !== null ? { log_uri: paneUri(pane.paneId, "log") } : {}),
  };
}

/** `resources/list`: the sessions tree, and each pane's facts, output and (when logged) log. */
export async function listResources(app: App): Promise<Resource[]> {
  const panes = (await listPanes(app.tmux)).filter((p) => !app.workspace.isHub(p));
  const resources: Resource[] = [{
    uri: SESSIONS_URI,
    name: "sessions",
    title: "tmux sessions, windows and panes",
    mimeType: JSON_TYPE,
  }];
  for (const pane of panes) {
    const label = pane.name === null ? pane.paneId : `${pane.paneId} "${pane.name}"`;
    resources.push(
      { uri: paneUri(pane.paneId, "pane"), name: `${pane.paneId}`, title: `Pane ${label}`, mimeType: JSON_TYPE },
      {
        uri: paneUri(pane.paneId, "content"),
        name: `${pane.paneId}/content`,
        title: `Pane ${label}: recent output`,
        mimeType: TEXT_TYPE,
      },
    );
    if (pane.logPath !== null) {
      resources.push({
        uri: paneUri(pane.paneId, "log"),
        name: `${pane.paneId}/log`,
        title: `Pane ${label}: log`,
        mimeType: TEXT_TYPE,
      });
    }
  }
  return resources;
}
