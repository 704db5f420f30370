/**
 * The /watch page: a list of every workspace's panes (live, from /watch/events) and, for each pane
 * a person opens, a read-only terminal (xterm.js, DOM renderer: its text is in the page) fed by
 * the same stream, /watch/events?pane=%N: the current screen first, then the pane's output as it
 * comes. Scripts are same-origin files, so the Content-Security-Policy allows no inline or foreign one.
 */

export const WATCH_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tmuxwright: watch</title>
<link rel="stylesheet" href="/watch/xterm.css">
<link rel="stylesheet" href="/watch/watch.css">
<script src="/watch/xterm.js" defer></script>
<script src="/watch/app.js" defer></script>
</head>
<body>
<header><h1>tmuxwright</h1><span id="status" role="status">connecting…</span></header>
<main>
<nav aria-label="Panes"><ul id="panes"></ul></nav>
<section id="terminals" aria-label="Open panes"></section>
</main>
</body>
</html>
`;

export const WATCH_CSS = `
body { margin: 0; font: 14px system-ui, sans-serif; background: #111; color: #ddd; }
header { display: flex; gap: 1em; align-items: baseline; padding: .4em 1em; background: #1b1b1b; }
header h1 { font-size: 1.1em; margin: 0; }
main { display: flex; align-items: flex-start; }
nav { width: 18em; flex: none; padding: .5em; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li.session { margin-top: .6em; font-weight: bold; color: #aaa; }
nav button { width: 100%; text-align: left; background: #222; color: #ddd; border: 1px solid #333; margin: 2px 0;
  padding: .3em .5em; cursor: pointer; font: inherit; }
nav button[aria-pressed="true"] { border-color: #6af; }
.exited { color: #e88; }
#terminals { display: flex; flex-wrap: wrap; gap: .5em; padding: .5em; flex: 1; }
.panel { border: 1px solid #333; background: #000; }
.panel h2 { font-size: .9em; margin: 0; padding: .2em .5em; background: #1b1b1b; display: flex; gap: .5em; }
.panel h2 button { margin-left: auto; }
`;

export const WATCH_APP_JS = `"use strict";
(() => {
  const list = document.getElementById("panes");
  const area = document.getElementById("terminals");
  const status = document.getElementById("status");
  const open = new Map();
  let panes = [];
  let feed = null;
  let wanted = new URLSearchParams(location.search).getAll("pane");

  function label(p) {
    return p.pane_id + (p.name ? " " + p.name : "") + " " + (p.status === "exited"
      ? "exited " + (p.exit_code ?? "?") : p.command);
  }

  function renderList() {
    list.textContent = "";
    const bySession = new Map();
    for (const p of panes) {
      const key = p.workspace ? "workspace " + p.workspace : "session " + p.session;
      if (!bySession.has(key)) bySession.set(key, []);
      bySession.get(key).push(p);
    }
    for (const [key, items] of bySession) {
      const head = document.createElement("li");
      head.className = "session";
      head.textContent = key;
      list.append(head);
      for (const p of items) {
        const li = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label(p);
        button.dataset.pane = p.pane_id;
        if (p.status === "exited") button.classList.add("exited");
        button.setAttribute("aria-pressed", open.has(p.pane_id) ? "true" : "false");
        button.addEventListener("click", () => open.has(p.pane_id) ? closePane(p.pane_id) : openPane(p));
        li.append(button);
        list.append(li);
      }
    }
    for (const [id, view] of open) {
      const p = panes.find((q) => q.pane_id === id);
      view.state.textContent = p ? (p.status === "exited" ? "exited, code " + (p.exit_code ?? "?") : "running")
        : "gone";
      view.panel.dataset.status = p ? p.status : "gone";
    }
  }

  function decode(base64) {
    const raw = atob(base64);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  // One stream carries the list and every open pane (browsers allow six connections per host):
  // opening or closing a pane reconnects it, and every open pane starts again from its screen.
  function connect() {
    if (feed) feed.close();
    const query = [...open.keys()].map((id) => "pane=" + encodeURIComponent(id)).join("&");
    feed = new EventSource("/watch/events" + (query ? "?" + query : ""));
    feed.addEventListener("panes", (e) => {
      panes = JSON.parse(e.data);
      status.textContent = panes.length + " panes";
      const pick = wanted;
      wanted = [];
      const toOpen = pick.map((id) => panes.find((q) => q.pane_id === id)).filter((p) => p && !open.has(p.pane_id));
      if (toOpen.length > 0) openPanes(toOpen);
      else renderList();
    });
    feed.addEventListener("screen", (e) => {
      const s = JSON.parse(e.data);
      const view = open.get(s.pane_id);
      if (!view) return;
      view.behind = false;
      view.term.reset();
      view.term.resize(s.cols, s.rows);
      view.term.write(s.text);
      view.panel.dataset.ready = "true";
    });
    feed.addEventListener("output", (e) => {
      const space = e.data.indexOf(" ");
      const view = open.get(e.data.slice(0, space));
      if (!view || view.behind) return;
      const bytes = decode(e.data.slice(space + 1));
      // xterm parses writes later, in slices: a flood can pile up there, out of the server's sight.
      // Past 512 KiB unparsed the view drops output, and once it has drawn what it has, the stream
      // starts again from every open pane's current screen.
      view.unparsed += bytes.length;
      if (view.unparsed > 524288) view.behind = true;
      view.term.write(bytes, () => {
        view.unparsed -= bytes.length;
        if (view.behind && view.unparsed === 0) {
          view.behind = false;
          connect();
        }
      });
    });
    feed.addEventListener("gone", (e) => {
      const view = open.get(JSON.parse(e.data).pane_id);
      if (view) view.state.textContent = "gone";
    });
    feed.addEventListener("error", () => { status.textContent = "reconnecting…"; });
  }

  function addPanel(p) {
    const panel = document.createElement("article");
    panel.className = "panel";
    panel.dataset.pane = p.pane_id;
    const title = document.createElement("h2");
    const name = document.createElement("span");
    name.textContent = p.pane_id + (p.name ? " " + p.name : "");
    const state = document.createElement("span");
    state.className = "state";
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "close";
    close.addEventListener("click", () => closePane(p.pane_id));
    title.append(name, state, close);
    const box = document.createElement("div");
    panel.append(title, box);
    area.append(panel);
    // The DOM renderer (xterm's default) keeps the text in the page, for people and tests alike.
    const term = new Terminal({ disableStdin: true, cols: p.width, rows: p.height, scrollback: 5000 });
    term.open(box);
    open.set(p.pane_id, { panel, term, state, unparsed: 0, behind: false });
  }

  function openPanes(items) {
    items.forEach(addPanel);
    renderList();
    connect();
  }

  function openPane(p) {
    openPanes([p]);
  }

  function closePane(id) {
    const view = open.get(id);
    if (!view) return;
    view.term.dispose();
    view.panel.remove();
    open.delete(id);
    renderList();
    connect();
  }

  connect();
})();
`;
