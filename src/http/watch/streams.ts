import type { WatchBackend } from "./backend.ts";
import type { WallFeed, WallListener } from "./wall_feed.ts";

/** Output queued for a page beyond this is dropped, and the page gets the current screen instead. */
const BEHIND_BYTES = 1024 * 1024;
/** Frames are held back while this much is queued for the page; the latest of each goes once it drains. */
const FRAMES_BEHIND_BYTES = 256 * 1024;
/** Output is sent at most this often per pane (a flood becomes few large events, not many small). */
const FLUSH_MS = 10;
const KEEPALIVE_MS = 15_000;

export type Send = (event: string, data: string) => void;

/**
 * A server-sent event stream that ends when the page goes or the server stops. `backlog()` is the
 * bytes queued for the page and not yet taken by the connection.
 */
export function eventStream(
  stopping: AbortSignal,
  headers: Record<string, string>,
  start: (send: Send, backlog: () => number) => () => void,
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
  }, new ByteLengthQueuingStrategy({ highWaterMark: 0 })); // desiredSize is minus the bytes queued
  return new Response(stream, {
    headers: { ...headers, "content-type": "text/event-stream; charset=utf-8", "x-accel-buffering": "no" },
  });
}

/**
 * The wall on one page's stream: `hosts`, `panes` (with states), `questions`, and a `frame` per
 * pane whose screen changed. A page that cannot keep up has frames held back; once it drains it
 * gets the latest frame of each pane held.
 */
export function wallListener(feed: WallFeed, send: Send, backlog: () => number): WallListener {
  const held = new Set<string>();
  return {
    hosts: (_, json) => send("hosts", json),
    panes: (_, json) => send("panes", json),
    questions: (_, json) => send("questions", json),
    frame(frame, json) {
      if (held.size > 0 || backlog() > FRAMES_BEHIND_BYTES) held.add(frame.pane_id);
      else send("frame", json);
    },
    tick() {
      if (held.size === 0 || backlog() > FRAMES_BEHIND_BYTES / 2) return;
      for (const id of held) {
        const latest = feed.frame(id);
        if (latest) send("frame", latest.json);
      }
      held.clear();
    },
  };
}

/**
 * One pane's bytes on a watch stream (the page's full-size view): `screen` (JSON: pane_id and the
 * current screen as terminal output, cursor placed), then `output` events (`%N base64-bytes`),
 * and `gone` when the pane vanishes. A page that cannot keep up (its queue past 1 MiB) loses the
 * queued output and gets the screen again. Returns the stop.
 */
export function followPane(id: string, backend: WatchBackend, send: Send, backlog: () => number): () => void {
  let closed = false;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ready = false; // bytes before the first screen are in that screen
  let resyncing = false;
  let follow: { close(): void } | null = null;
  let changes: (() => void) | null = null;

  const sendScreen = async () => {
    const screen = await backend.screen(id).catch(() => null);
    if (closed) return;
    if (!screen) {
      send("gone", JSON.stringify({ pane_id: id }));
      return;
    }
    pending = [];
    pendingBytes = 0;
    const text = screen.lines.join("\x1b[0m\r\n") + `\x1b[0m\x1b[${screen.cursorY + 1};${screen.cursorX + 1}H`;
    send("screen", JSON.stringify({ pane_id: id, cols: screen.cols, rows: screen.rows, text }));
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
    follow = await backend.follow(id, (bytes) => {
      if (closed || !ready || resyncing) return;
      pending.push(bytes.slice());
      pendingBytes += bytes.length;
      timer ??= setTimeout(flush, FLUSH_MS);
    }, () => {
      if (!closed && ready && !resyncing) void sendScreen();
    }).catch(() => null);
    if (closed) return follow?.close();
    await sendScreen();
    changes = backend.onPanesChanged(async () => {
      const panes = await backend.panes().catch(() => null);
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
