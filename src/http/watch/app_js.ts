/**
 * The /watch page's script: the list of every host's panes, grouped by host and workspace, and
 * a read-only terminal per open pane, all fed by one event stream (see routes.ts).
 */
export const WATCH_APP_JS = `"use strict";
(() => {
  const list = document.getElementById("panes");
  const area = document.getElementById("terminals");
  const status = document.getElementById("status");
  const open = new Map();
  let panes = [];
  let hosts = [];
  let feed = null;
  let wanted = new URLSearchParams(location.search).getAll("pane");

  function label(p) {
    return p.pane_id + (p.name ? " " + p.name : "") + " " + (p.status === "exited"
      ? "exited " + (p.exit_code ?? "?") : p.command);
  }

  function hostLine(name) {
    const h = hosts.find((x) => x.host === name);
    if (!h) return "host " + name;
    const since = h.since ? " since " + new Date(h.since).toLocaleTimeString() : "";
    const state = h.state === "idle" ? "not connected yet" : h.state + since;
    return "host " + name + ": " + state;
  }

  // Grouped by host (this machine first, then each remote host with its link state), then by
  // workspace or session.
  function renderList() {
    list.textContent = "";
    const names = ["local", ...hosts.map((h) => h.host)];
    for (const name of names) {
      const mine = panes.filter((p) => p.host === name);
      if (hosts.length > 0) {
        const head = document.createElement("li");
        head.className = "host";
        head.dataset.host = name;
        head.dataset.state = name === "local" ? "connected" : (hosts.find((h) => h.host === name) || {}).state;
        head.textContent = name === "local" ? "this machine" : hostLine(name);
        list.append(head);
      }
      renderGroups(mine);
    }
    for (const [id, view] of open) {
      const p = panes.find((q) => q.pane_id === id);
      view.state.textContent = p ? (p.status === "exited" ? "exited, code " + (p.exit_code ?? "?") : "running")
        : "gone";
      view.panel.dataset.status = p ? p.status : "gone";
    }
  }

  function renderGroups(items) {
    const bySession = new Map();
    for (const p of items) {
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
    feed.addEventListener("hosts", (e) => {
      hosts = JSON.parse(e.data);
      renderList();
    });
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
