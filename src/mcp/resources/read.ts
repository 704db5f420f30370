import type { App } from "../../app.ts";
import type { ReadResourceResult, Resource } from "../sdk.ts";
import { paneSummary } from "../results.ts";
import { capturePane, listPanes, listTree, type PaneInfo, resolvePane } from "../../engine/panes/mod.ts";
import { type LogScope, readTail, resolveLog } from "../../engine/logs/mod.ts";
import { paneUri, parseUri, SESSIONS_URI } from "./uris.ts";
import { appOnHost, hostPaneId, hostsInUse, splitPaneRef, tagHost } from "../hosts.ts";

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

/** A host's answer is given up after this, in listings over every host (it is left out, as list_panes does). */
const HOST_LIST_MS = 3000;

/**
 * `resources/read`: the sessions tree, one pane's facts, its recent output, or its log's tail. A
 * remote host's pane is `NAME:%N` (or `NAME:name`), as the tools write it.
 */
export async function readResource(app: App, uri: string): Promise<ReadResourceResult> {
  const target = parseUri(uri);
  const one = (mimeType: string, text: string): ReadResourceResult => ({ contents: [{ uri, mimeType, text }] });
  if (target.kind === "sessions") {
    const parts = await everyHost(app, async (host, on) => tagHost(await sessionsOn(on, host), host));
    return one(JSON_TYPE, JSON.stringify({ sessions: parts.flat() }));
  }
  const { host, ref } = splitPaneRef(app, target.ref);
  const on = appOnHost(app, host);
  switch (target.kind) {
    case "pane": {
      const pane = await resolvePane(on.tmux, ref, on.workspace.instance);
      return one(JSON_TYPE, JSON.stringify(tagHost(paneDocument(on, pane, host), host)));
    }
    case "content": {
      const pane = await resolvePane(on.tmux, ref, on.workspace.instance);
      return one(TEXT_TYPE, (await capturePane(on.tmux, pane, { lines: CONTENT_LINES })).text);
    }
    case "log": {
      const log = await resolveLog(on.tmux, logScope(on), ref);
      return one(TEXT_TYPE, (await readTail(log.logPath, LOG_LINES, true)).lines.join("\n"));
    }
  }
}

/**
 * `list` on this machine and every remote host in use (as list_panes without a host), each host
 * bounded; a remote host that fails or is slow is left out, this machine's failure is the call's.
 */
async function everyHost<T>(app: App, list: (host: string, on: App) => Promise<T>): Promise<T[]> {
  const hosts = hostsInUse(app);
  const settled = await Promise.allSettled(hosts.map((host) => {
    const run = list(host, appOnHost(app, host));
    if (host === "local") return run;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error("slow")), HOST_LIST_MS));
    return Promise.race([run, late]).finally(() => clearTimeout(timer));
  }));
  if (settled[0].status === "rejected") throw settled[0].reason;
  return settled.flatMap((s) => s.status === "fulfilled" ? [s.value] : []);
}

async function sessionsOn(app: App, host: string) {
  const sessions = await listTree(app.tmux);
  return sessions.map((s) => ({
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
        panes: w.panes.map((p) => ({ ...paneSummary(app, p), uri: paneUri(hostPaneId(host, p.paneId)!, "pane") })),
      })),
  }));
}

function paneDocument(app: App, pane: PaneInfo, host: string) {
  const id = hostPaneId(host, pane.paneId)!;
  return {
    ...paneSummary(app, pane),
    session_name: pane.sessionName,
    window_index: pane.windowIndex,
    pane_index: pane.paneIndex,
    logged: pane.logPath !== null,
    content_uri: paneUri(id, "content"),
    ...(pane.logPath !== null ? { log_uri: paneUri(id, "log") } : {}),
  };
}

/** `resources/list`: the sessions tree, and each pane's facts, output and (when logged) log, on every host in use. */
export async function listResources(app: App): Promise<Resource[]> {
  const perHost = await everyHost(
    app,
    async (host, on) =>
      (await listPanes(on.tmux)).filter((p) => !on.workspace.isHub(p))
        .map((p) => ({ ...p, paneId: hostPaneId(host, p.paneId)! })),
  );
  const panes = perHost.flat();
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
