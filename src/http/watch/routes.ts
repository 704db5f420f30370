import type { WatchBackend, WatchPane } from "./backend.ts";
import type { WatchAccess } from "./access.ts";
import { WATCH_APP_JS, WATCH_CSS, WATCH_HTML } from "./page.ts";
import { XTERM_CSS, XTERM_JS } from "../../vendor/xterm_assets.ts";

/**
 * Headers on every /watch answer: only same-origin scripts (inline styles are allowed, xterm's DOM
 * renderer sets them), never framed, never cached, no referrer carrying a URL out.
 */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
    "connect-src 'self'; img-src 'self' data:; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; " +
    "form-action 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const FILES: Record<string, { body: string; type: string }> = {
  "/watch/app.js": { body: WATCH_APP_JS, type: "text/javascript; charset=utf-8" },
  "/watch/xterm.js": { body: XTERM_JS, type: "text/javascript; charset=utf-8" },
  "/watch/xterm.css": { body: XTERM_CSS, type: "text/css; charset=utf-8" },
  "/watch/watch.css": { body: WATCH_CSS, type: "text/css; charset=utf-8" },
};

/** `%N`, or `NAME:%N` for a remote host's pane (NAME as --host allows it). */
const PANE_ID = /^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,31}:)?%\d{1,9}$/;
const MAX_PANES = 64;
/** Output queued for a page beyond this is dropped, and the page gets the current screen instead. */
const BEHIND_BYTES = 1024 * 1024;
/** Output is sent at most this often per pane (a flood becomes few large events, not many small). */
const FLUSH_MS = 10;
const KEEPALIVE_MS = 15_000;

export interface WatchRouteDeps {
  backend: WatchBackend;
  access: WatchAccess;
  /** Aborted when the server stops: every stream ends. */
  stopping: AbortSignal;
  secure: boolean;
}

export function isWatchPath(path: string): boolean {
  return path === "/watch" || path.startsWith("/watch/");
}

/** GET /watch and its files and event streams; read-only. */
export function watchRoute(request: Request, deps: WatchRouteDeps): Response {
  const url = new URL(request.url);
  if (request.method !== "GET" && request.method !== "HEAD") {
    return text(405, "Method not allowed.", { allow: "GET, HEAD" });
  }
  if (url.pathname === "/watch" && url.searchParams.has("token")) {
    const cookie = deps.access.exchange(url.searchParams.get("token"), deps.secure);
    if (cookie === null) return text(401, "Unauthorized: the token is wrong.");
    url.searchParams.delete("token");
    // A relative Location keeps whatever host the browser used; the token is no longer in it.
    return new Response(null, {
      status: 303,
      headers: { ...SECURITY_HEADERS, location: `/watch${url.search}`, "set-cookie": cookie },
    });
  }
  if (!deps.access.allowed(request)) {
    return text(401, "Unauthorized: open /watch?token=TOKEN once (the token the server was started with).");
  }
  if (url.pathname === "/watch") return file(WATCH_HTML, "text/html; charset=utf-8");
  const asset = FILES[url.pathname];
  if (asset) return file(asset.body, asset.type);
  if (url.pathname === "/watch/events") {
    // One stream for the list and every open pane: a browser allows only six connections per
    // host over HTTP/1.1, so a stream per pane would stall the seventh pane.
    const ids = [...new Set(url.searchParams.getAll("pane"))];
    const bad = ids.find((id) => !PANE_ID.test(id));
    if (bad !== undefined) {
      return text(400, `Bad pane id ${JSON.stringify(bad)}: use "%N" or "HOST:%N" as list_panes shows it.`);
    }
    if (ids.length > MAX_PANES) return text(400, `Too many panes: at most ${MAX_PANES} in one stream.`);
    return watchStream(ids, deps);
  }
  return text(404, "Not found.");
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body + "\n", {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8", ...headers },
  });
}

function file(body: string, type: string): Response {
  return new Response(body, { headers: { ...SECURITY_HEADERS, "content-type": type } });
}

/** A server-sent event stream that ends when the page goes or the server stops. */
function eventStream(
  stopping: AbortSignal,
  start: (send: (event: string, data: string) => void, backlog: () => number) => () => void,
): Response {
  const encoder = new TextEncoder();
  let stop: (() => void) | null = null;
  let keepalive: ReturnType<typeof setInterval> | undefined;
  const end = () => {
    clearInterval(keepalive);
    stopping.removeEventListener("abort", onStop);
    stop?.();
    stop = null;
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onStop = () => {
    end();
    try {
      controller.close();
    } catch { /* already closed */ }
  };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      const send = (event: string, data: string) => {
        try {
          c.enqueue(encoder.encode(`event: ${event}\ndata: ${data}\n\n`));
        } catch { /* the page went away */ }
      };
      stop = start(send, () => -(c.desiredSize ?? 0));
      keepalive = setInterval(() => {
        try {
          c.enqueue(encoder.encode(": keep-alive\n\n"));
        } catch { /* closed */ }
      }, KEEPALIVE_MS);
      if (stopping.aborted) onStop();
      else stopping.addEventListener("abort", onStop);
    },
    cancel: end,
  });
  return new Response(stream, {
    headers: { ...SECURITY_HEADERS, "content-type": "text/event-stream; charset=utf-8", "x-accel-buffering": "no" },
  });
}

/**
 * `hosts` events (each remote host's link state, when it changes), `panes` events (the whole list
 * now, and again whenever panes appear, exit or vanish), and for
 * each pane asked for: `screen`, then `output`, and `gone` (see `followPane`).
 */
function watchStream(ids: string[], deps: WatchRouteDeps): Response {
  return eventStream(deps.stopping, (send, backlog) => {
    const stops = ids.map((id) => followPane(id, deps, send, backlog));
    let last = "";
    let lastHosts = "";
    let sending: Promise<void> = Promise.resolve();
    const update = () => {
      const hosts = JSON.stringify(deps.backend.hosts());
      if (hosts !== lastHosts) send("hosts", lastHosts = hosts);
      sending = sending.then(async () => {
        const panes: WatchPane[] = await deps.backend.panes().catch(() => []);
        const data = JSON.stringify(panes);
        if (data !== last) send("panes", last = data);
      });
    };
    update();
    const unsubscribe = deps.backend.onPanesChanged(update);
    return () => {
      unsubscribe();
      stops.forEach((stop) => stop());
    };
  });
}

/**
 * One pane on a watch stream: `screen` (JSON: pane_id and the current screen), then `output`
 * events (`%N base64-bytes`), and `gone` when the pane vanishes. A page that cannot keep up (its
 * queue past 1 MiB) loses the queued output and gets the screen again. Returns the stop.
 */
function followPane(
  id: string,
  deps: WatchRouteDeps,
  send: (event: string, data: string) => void,
  backlog: () => number,
): () => void {
  let closed = false;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ready = false; // bytes before the first screen are in that screen
  let resyncing = false;
  let follow: { close(): void } | null = null;
  let changes: (() => void) | null = null;

  const sendScreen = async () => {
    const screen = await deps.backend.screen(id).catch(() => null);
    if (closed) return;
    if (!screen) {
      send("gone", JSON.stringify({ pane_id: id }));
      return;
    }
    pending = [];
    pendingBytes = 0;
    send("screen", JSON.stringify({ pane_id: id, ...screen }));
    ready = true;
  };
  const flush = () => {
    timer = undefined;
    if (closed || pendingBytes === 0) return;
    if (backlog() > BEHIND_BYTES) {
      if (!resyncing) {
        resyncing = true;
        pending = [];
        pendingBytes = 0;
        // Once the page has read what it has, it starts again from the screen as it is then.
        const retry = () => {
          if (closed) return;
          if (backlog() > BEHIND_BYTES / 4) return void setTimeout(retry, 50);
          void sendScreen().finally(() => resyncing = false);
        };
        retry();
      }
      return;
    }
    const joined = new Uint8Array(pendingBytes);
    let at = 0;
    for (const chunk of pending) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    pending = [];
    pendingBytes = 0;
    send("output", `${id} ${toBase64(joined)}`);
  };
  void (async () => {
    follow = await deps.backend.follow(id, (bytes) => {
      if (closed || !ready || resyncing) return;
      pending.push(bytes.slice());
      pendingBytes += bytes.length;
      timer ??= setTimeout(flush, FLUSH_MS);
    }, () => {
      if (!closed && ready && !resyncing) void sendScreen();
    }).catch(() => null);
    if (closed) return follow?.close();
    await sendScreen();
    changes = deps.backend.onPanesChanged(async () => {
      const panes = await deps.backend.panes().catch(() => null);
      if (panes && !closed && !panes.some((p) => p.pane_id === id)) send("gone", JSON.stringify({ pane_id: id }));
    });
  })();
  return () => {
    closed = true;
    clearTimeout(timer);
    follow?.close();
    changes?.();
  };
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
