import * as z from "zod";
import type { App } from "../app.ts";
import { ToolError } from "../engine/errors.ts";
import { ImageResult } from "./results.ts";
import { notConfigured, unreachable } from "../engine/hosts/mod.ts";

/**
 * Pane references across hosts, in one place. Agents write `NAME:%N` (and `NAME:@N`, `NAME:$N`,
 * `NAME:pane-name`) for a remote host's pane, or pass `host` where a tool creates or lists; the
 * engine below sees only plain ids on that host's own tmux server. Results going back get the
 * prefix again and a `host` field, so they chain unchanged. A prefix that is not a configured
 * host is HOST_NOT_CONFIGURED, whatever it contains; it never reaches ssh.
 */

/** The `host` argument of the tools that create, list or search. */
export const hostArg = z.string().min(1).max(200).describe("a --host name; default local");

/** Arguments that hold a pane reference (an id or a name), or a cursor (`HOST:tw1.…` for a remote pane's). */
const PANE_FIELDS = ["pane_id", "split_from", "other_pane_id", "cursor"];
/** Arguments that hold a window or session reference: only the id forms carry a host (`dev:1` is session:index). */
const ID_FIELDS = ["window", "session", "target"];
const REMOTE_ID = /^([^:]{1,200}):([%@$]\d+)$/;
const REMOTE_PANE = /^([^:]{1,200}):(.+)$/;

export interface HostRoute {
  /** "local" or a configured host name. */
  host: string;
  /** The arguments with host prefixes removed (and `host` itself, which the tools never read). */
  args: Record<string, unknown>;
  /** Set when `host` was not given and no argument names one: the tool may run on every host. */
  unrouted: boolean;
}

/** Finds the host a call is for and strips it from the arguments; mixed hosts are INVALID_ARGUMENT. */
export function routeHost(app: App, args: Record<string, unknown>): HostRoute {
  const found = new Map<string, string>(); // host → the argument that named it
  const stripped: Record<string, unknown> = { ...args };
  if (args.host !== undefined) {
    if (typeof args.host !== "string") {
      throw new ToolError(
        "INVALID_ARGUMENT",
        "Invalid host: expected a host name (a string)",
        "Use list_panes to see hosts.",
      );
    }
    found.set(checkHost(app, args.host), "host");
  }
  delete stripped.host;
  for (const field of [...PANE_FIELDS, ...ID_FIELDS]) {
    const value = args[field];
    if (typeof value !== "string") continue;
    const match = (PANE_FIELDS.includes(field) ? REMOTE_PANE : REMOTE_ID).exec(value);
    if (!match) continue;
    const host = checkHost(app, match[1]);
    if (!found.has(host)) found.set(host, field);
    stripped[field] = match[2];
  }
  if (found.size > 1) {
    const named = [...found].map(([host, field]) => `${field} is on ${host}`).join(", ");
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Cannot act across hosts in one call: ${named}`,
      "Give panes of one host; move output between hosts by reading from one and sending to the other.",
    );
  }
  const host = found.keys().next().value ?? "local";
  return { host, args: stripped, unrouted: found.size === 0 && args.host === undefined };
}

/** A pane reference that may name a host (`NAME:%N`, `NAME:name`): the host and the reference on it. */
export function splitPaneRef(app: App, ref: string): { host: string; ref: string } {
  const match = REMOTE_PANE.exec(ref);
  return match ? { host: checkHost(app, match[1]), ref: match[2] } : { host: "local", ref };
}

/**
 * The hosts a listing without a host looks at: this machine, and each remote host whose link is
 * up or that holds the caller's panes (one never used is not dialled just to be looked at).
 */
export function hostsInUse(app: App): string[] {
  return app.hosts.names()
    .filter((name) => name === "local" || app.hosts.link(name).connected || app.owner.hasWorkspaceOn(name));
}

function checkHost(app: App, name: string): string {
  if (app.hosts.isKnown(name)) return name;
  throw notConfigured(name, app.hosts.names());
}

/** The connection's app as seen on `host`: that host's link and services, and the owner's workspace there. */
export function appOnHost(app: App, host: string): App {
  if (host === "local") return app;
  return { ...app, ...app.onHost(host), workspace: app.owner.workspaceOn(host) };
}

/** How readLogsMarker names the pane in an output budget's marker line. */
const MARKER_CALL = 'read_logs {"pane_id":"%';
const ID_KEYS = new Set(["pane_id", "window_id", "session_id", "split_from", "other_pane_id", "source_pane_id"]);

/**
 * Names the host in a result: ids of a remote host's panes get `NAME:`, and every object that
 * carries a `pane_id` gets `host` (local results too, once any remote host is configured).
 */
export function tagHost<T>(value: T, host: string): T {
  // Budget markers in output text name the call that returns what they left out.
  if (typeof value === "string" && host !== "local" && value.includes(MARKER_CALL)) {
    return value.replaceAll(MARKER_CALL, `${MARKER_CALL.slice(0, -1)}${host}:%`) as T;
  }
  if (Array.isArray(value)) return value.map((item) => tagHost(item, host)) as T;
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const remoteRef = host !== "local" && typeof item === "string" &&
      (ID_KEYS.has(key) && /^[%@$]\d+$/.test(item) || key === "cursor" && item.startsWith("tw1."));
    out[key] = remoteRef ? `${host}:${item}` : tagHost(item, host);
  }
  if ("pane_id" in out && !("host" in out)) out.host = host;
  return out as T;
}

/** `NAME:%N` for a remote pane (audit lines and logs), the plain id locally. */
export function hostPaneId(host: string, paneId: string | null): string | null {
  return paneId === null || host === "local" ? paneId : `${host}:${paneId}`;
}

/** `tagHost` for a tool's value (an image result's fields). */
export function tagResult(
  value: Record<string, unknown> | ImageResult,
  host: string,
): Record<string, unknown> | ImageResult {
  if (value instanceof ImageResult) return new ImageResult(tagHost(value.fields, host), value.data, value.mimeType);
  return { ...tagHost(value, host), host };
}

/**
 * Runs a call on `host`; if the host's link goes down meanwhile, the call fails at once with
 * HOST_UNREACHABLE naming the host (and its work is cancelled), whatever it was waiting for:
 * output that the drop holds back would otherwise keep it waiting until its own timeout. One
 * exception: a link whose silence means the call reached no tmux (a container's exec outliving
 * its container, `silentDropIsUnsent`) is dialled again, and if it finds the host's tmux server
 * restarted, the call runs again there, once, after its first attempt has ended: what that
 * attempt would have done died with the old server.
 */
export function whileLinked<T>(
  app: App,
  host: string,
  signal: AbortSignal,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return host === "local" ? call(signal) : linkedAttempt(app, host, signal, call, true);
}

async function linkedAttempt<T>(
  app: App,
  host: string,
  signal: AbortSignal,
  call: (signal: AbortSignal) => Promise<T>,
  mayRetry: boolean,
): Promise<T> {
  const link = app.hosts.link(host);
  const heard = link.heard;
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  signal.addEventListener("abort", forward, { once: true });
  let stop = () => {};
  let retrying = false;
  let answered = false;
  let attemptEnded: Promise<unknown> = Promise.resolve();
  const lost = new Promise<T>((resolve, reject) => {
    stop = link.onStatus((status) => {
      if (status.kind !== "lost") return;
      stop(); // this attempt hears one drop; a retry listens for its own
      const target = app.hosts.target(host);
      const drop = unreachable(host, target.destination, `the connection dropped during the call (${status.reason})`);
      retrying = mayRetry && link.silentDropIsUnsent && link.heard === heard && !signal.aborted;
      controller.abort();
      if (!retrying) return reject(drop);
      const lostAt = new Date();
      void (async () => {
        const restarted = await untilOrAborted(restartFound(link, lostAt), signal);
        if (restarted) await untilOrAborted(attemptEnded, signal); // never two attempts at once
        // Answered meanwhile: the attempt returned its value despite the abort; it is not run twice.
        if (answered) return;
        if (!restarted || signal.aborted) return reject(drop);
        app.events.log(
          "info",
          "tmux",
          `a call on host ${host} reached no tmux before its restart: it runs again there`,
        );
        resolve(linkedAttempt(app, host, signal, call, false));
      })();
    });
  });
  lost.catch(() => {}); // answered by the race or below; never an unhandled rejection
  try {
    const attempt = call(controller.signal);
    attemptEnded = attempt.catch(() => {});
    return await Promise.race([attempt, lost]);
  } catch (error) {
    if (retrying) return await lost; // the call again, or the drop: not the cancellation the drop caused
    throw error;
  } finally {
    answered = true;
    stop();
    signal.removeEventListener("abort", forward);
  }
}

/** Whether the link, dialled again now, reaches another tmux server than before `since`. */
async function restartFound(link: ReturnType<App["hosts"]["link"]>, since: Date): Promise<boolean> {
  await link.connect().catch(() => {}); // within its backoff it fails at once: then the drop is the answer
  return link.restartedAt !== null && link.restartedAt >= since;
}

/** `work`'s value, or undefined once `signal` aborts first (the call's deadline). */
async function untilOrAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return undefined;
  let onAbort = () => {};
  const aborted = new Promise<undefined>((resolve) => onAbort = () => resolve(undefined));
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
