import type { WatchBackend } from "./backend.ts";
import type { WatchAccess } from "./access.ts";
import { WATCH_CSS, WATCH_HTML } from "./page.ts";
import { WATCH_APP_JS } from "./app_js.ts";
import { WallFeed } from "./wall_feed.ts";
import { eventStream, followPane, wallListener } from "./streams.ts";

/**
 * Headers on every /watch answer: only same-origin scripts (inline styles are allowed, xterm's DOM
 * renderer and the wall's tiles set them), never framed, never cached, no referrer carrying a URL out.
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

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

/** The page's own files; xterm.js (~0.5 MB) is loaded only when a person opens a pane full-size. */
const FILES: Record<string, () => Promise<{ body: string; type: string }>> = {
  "/watch/app.js": () => Promise.resolve({ body: WATCH_APP_JS, type: JS }),
  "/watch/watch.css": () => Promise.resolve({ body: WATCH_CSS, type: CSS }),
  "/watch/xterm.js": async () => ({ body: (await import("../../vendor/xterm_assets.ts")).XTERM_JS, type: JS }),
  "/watch/xterm.css": async () => ({ body: (await import("../../vendor/xterm_assets.ts")).XTERM_CSS, type: CSS }),
};

/** `%N`, or `NAME:%N` for a remote host's pane (NAME as --host allows it). */
const PANE_ID = /^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,31}:)?%\d{1,9}$/;
const MAX_PANES = 64;

export interface WatchRouteDeps {
  backend: WatchBackend;
  access: WatchAccess;
  /** Aborted when the server stops: every stream ends. */
  stopping: AbortSignal;
  secure: boolean;
}

/** /watch for one listener: its routes and the wall's one feed, which every open page shares. */
export class WatchRoutes {
  readonly #feed: WallFeed;

  constructor(private readonly deps: WatchRouteDeps) {
    this.#feed = new WallFeed(deps.backend);
  }

  handle(request: Request): Promise<Response> {
    return watchRoute(request, this.deps, this.#feed);
  }
}

/** GET /watch and its files and event streams; read-only. */
async function watchRoute(request: Request, deps: WatchRouteDeps, feed: WallFeed): Promise<Response> {
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
  if (asset) {
    const { body, type } = await asset();
    return file(body, type);
  }
  if (url.pathname === "/watch/events") {
    // One stream for the wall and the pane open full-size: a browser allows only six connections
    // per host over HTTP/1.1, so a stream per pane would stall the seventh.
    const ids = [...new Set(url.searchParams.getAll("pane"))];
    const bad = ids.find((id) => !PANE_ID.test(id));
    if (bad !== undefined) {
      return text(400, `Bad pane id ${JSON.stringify(bad)}: use "%N" or "HOST:%N" as list_panes shows it.`);
    }
    if (ids.length > MAX_PANES) return text(400, `Too many panes: at most ${MAX_PANES} in one stream.`);
    return eventStream(deps.stopping, SECURITY_HEADERS, (send, backlog) => {
      const stops = [
        feed.subscribe(wallListener(feed, send, backlog)),
        ...ids.map((id) => followPane(id, deps.backend, send, backlog)),
      ];
      return () => stops.forEach((stop) => stop());
    });
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
