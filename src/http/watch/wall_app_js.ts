/**
 * The wall's state and event stream, part of /watch/app.js (see app_js.ts): every pane a tile
 * (up to 16; the quietest of the rest folded into a list, newest activity first), what needs a
 * person first, filters by agent, host and state, and the keyboard (arrows, Enter, Esc).
 */
export const WALL_APP_JS = `
  const MAX_TILES = 16;
  const tilesBox = document.getElementById("tiles");
  const folded = document.getElementById("folded");
  const summary = document.getElementById("summary");
  const hostsBox = document.getElementById("hosts");
  const asks = document.getElementById("questions");
  const filters = { agent: document.getElementById("f-agent"), host: document.getElementById("f-host"),
    state: document.getElementById("f-state") };
  const query = new URLSearchParams(location.search);
  let panes = [];
  let shown = [];
  let columns = 1;
  const frames = new Map();
  const tiles = new Map();
  let feed = null;
  const focus = { id: query.get("pane"), handlers: null };

  const agentOf = (p) => (p.agent ? p.agent.name : "");
  const agentText = (p) => (p.agent ? p.agent.name + (p.agent.title ? " (" + p.agent.title + ")" : "") : "no agent");
  const where = (p) => p.host + " · " + (p.name ? p.name + " " : "") + p.pane_id;

  const stateText = (p) => (p.known === false ? "checking… (" + (p.command || "?") + ")" : statusText(p));

  function matches(p) {
    const agent = filters.agent.value;
    const state = filters.state.value;
    if (agent && (agent === "-" ? p.agent !== null : agentOf(p) !== agent)) return false;
    if (filters.host.value && p.host !== filters.host.value) return false;
    if (state === "person") return p.needs_person;
    return !state || p.state === state;
  }

  /** Needs a person first; then a stable place (agent, host, session, window, pane). */
  function byPlace(a, b) {
    if (a.needs_person !== b.needs_person) return a.needs_person ? -1 : 1;
    const key = (p) => [agentOf(p) || "~", p.host, p.session, String(p.window_index).padStart(6), p.pane_id];
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  }

  const activity = (p) => Math.max(p.active_at || 0, (frames.get(p.pane_id) || {}).active_at || 0);

  function fillSelect(select, values, label) {
    const keep = select.value || query.get(select.id.slice(2)) || "";
    const options = [["", "all " + label], ...values];
    if (select.options.length === options.length && options.every(([v], i) => select.options[i].value === v)) return;
    select.replaceChildren(...options.map(([value, text]) => {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = text;
      return o;
    }));
    select.value = options.some(([v]) => v === keep) ? keep : "";
  }

  function render() {
    for (const id of frames.keys()) if (!panes.some((p) => p.pane_id === id)) frames.delete(id);
    const agents = [...new Set(panes.map(agentOf).filter(Boolean))].sort().map((a) => [a, a]);
    if (panes.some((p) => !p.agent)) agents.push(["-", "no agent"]);
    fillSelect(filters.agent, agents, "agents");
    fillSelect(filters.host, [...new Set(panes.map((p) => p.host))].sort().map((h) => [h, h]), "hosts");
    const visible = panes.filter(matches);
    // The tiles: what needs a person, then the most recently active; the rest fold into the list.
    const ranked = [...visible].sort((a, b) => (b.needs_person - a.needs_person) || activity(b) - activity(a));
    const tiled = new Set(ranked.slice(0, MAX_TILES).map((p) => p.pane_id));
    shown = visible.filter((p) => tiled.has(p.pane_id)).sort(byPlace);
    const rest = ranked.slice(MAX_TILES).sort((a, b) => activity(b) - activity(a));
    const needs = panes.filter((p) => p.needs_person).length;
    summary.textContent = panes.length + " panes" + (visible.length < panes.length ? ", " + visible.length + " shown" : "") +
      (needs ? " · " + needs + " need you" : "");
    drawFolded(rest);
    layoutTiles();
  }

  function layoutTiles() {
    for (const [id, tile] of tiles) {
      if (!shown.some((p) => p.pane_id === id)) { tile.remove(); tiles.delete(id); }
    }
    const area = tilesBox.getBoundingClientRect();
    const grid = gridFor(shown.length, area.width, area.height);
    columns = grid.cols;
    tilesBox.style.gridTemplateColumns = "repeat(" + grid.cols + ", minmax(0, 1fr))";
    tilesBox.style.gridTemplateRows = "repeat(" + grid.rows + ", minmax(0, 1fr))";
    shown.forEach((p, i) => {
      let tile = tiles.get(p.pane_id);
      if (!tile) { tile = makeTile(p); tiles.set(p.pane_id, tile); }
      if (tilesBox.children[i] !== tile) tilesBox.insertBefore(tile, tilesBox.children[i] || null);
      labelTile(tile, p);
    });
    // Each box measured once per layout (one reflow for all), then every frame is drawn without one.
    const sizes = shown.map((p) => tiles.get(p.pane_id).screen).map((b) => [b, { width: b.clientWidth, height: b.clientHeight }]);
    for (const [box, size] of sizes) box.size = size;
    for (const p of shown) { const f = frames.get(p.pane_id); if (f) drawFrame(tiles.get(p.pane_id).screen, f); }
  }

  function makeTile(p) {
    const tile = document.createElement("article");
    tile.className = "tile";
    tile.tabIndex = 0;
    tile.dataset.pane = p.pane_id;
    const head = document.createElement("header");
    tile.agent = document.createElement("span");
    tile.agent.className = "agent";
    tile.where = document.createElement("span");
    tile.where.className = "where";
    tile.badge = document.createElement("span");
    tile.badge.className = "badge";
    head.append(tile.agent, tile.where, tile.badge);
    tile.screen = document.createElement("div");
    tile.screen.className = "screen";
    tile.append(head, tile.screen);
    tile.addEventListener("click", () => openFocus(tile.dataset.pane));
    return tile;
  }

  function labelTile(tile, p) {
    tile.agent.textContent = agentText(p);
    tile.where.textContent = where(p);
    tile.badge.textContent = stateText(p) + (p.question ? " · asks about: " + p.question : "");
    tile.dataset.state = p.state;
    tile.dataset.needs = p.needs_person ? "true" : "false";
    tile.setAttribute("aria-label", agentText(p) + ", " + where(p) + ": " + tile.badge.textContent);
  }

  function drawFolded(rest) {
    folded.hidden = rest.length === 0;
    const list = folded.querySelector("ol");
    list.replaceChildren(...rest.map((p) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.pane = p.pane_id;
      b.dataset.state = p.state;
      const ago = activity(p) ? Math.round((Date.now() - activity(p)) / 1000) + " s ago" : "quiet";
      b.textContent = agentText(p) + " · " + where(p) + " · " + stateText(p) + " · " + ago;
      b.addEventListener("click", () => openFocus(p.pane_id));
      li.append(b);
      return li;
    }));
    folded.querySelector("h2").textContent = rest.length + " quieter panes";
  }

  function drawHosts(list) {
    hostsBox.replaceChildren(...list.map((h) => {
      const s = document.createElement("span");
      s.className = "host";
      s.dataset.state = h.state;
      const since = h.since ? " since " + new Date(h.since).toLocaleTimeString() : "";
      s.textContent = h.host + ": " + (h.state === "idle" ? "not connected yet" : h.state + since);
      return s;
    }));
  }

  function drawQuestions(list) {
    asks.hidden = list.length === 0;
    asks.replaceChildren(...list.map((q) => {
      const p = document.createElement("p");
      p.textContent = (q.agent || "an agent") + " asks to run " + JSON.stringify(q.command) + " (" + q.tool +
        (q.pane_id ? ", pane " + q.pane_id : ", a new pane") + "): answer in its MCP client";
      return p;
    }));
  }

  /** One stream: the wall, and the pane open full-size (opening or closing one reconnects it). */
  function connect() {
    if (feed) feed.close();
    feed = new EventSource("/watch/events" + (focus.id ? "?pane=" + encodeURIComponent(focus.id) : ""));
    feed.addEventListener("hosts", (e) => drawHosts(JSON.parse(e.data)));
    feed.addEventListener("questions", (e) => drawQuestions(JSON.parse(e.data)));
    feed.addEventListener("panes", (e) => {
      panes = JSON.parse(e.data);
      render();
      focusChanged();
    });
    feed.addEventListener("frame", (e) => {
      const f = JSON.parse(e.data);
      frames.set(f.pane_id, f);
      const tile = tiles.get(f.pane_id);
      if (tile) drawFrame(tile.screen, f);
    });
    if (focus.handlers) for (const [type, handler] of focus.handlers) feed.addEventListener(type, handler);
    feed.addEventListener("error", () => { summary.textContent = "reconnecting…"; });
  }

  for (const select of Object.values(filters)) {
    select.addEventListener("change", () => {
      const q = new URLSearchParams(location.search);
      for (const [name, s] of Object.entries(filters)) { if (s.value) q.set(name, s.value); else q.delete(name); }
      history.replaceState(null, "", "/watch" + (q.toString() ? "?" + q : ""));
      render();
    });
  }

  // Arrows move between tiles, Enter opens one full-size, Esc goes back to the wall.
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && focus.id) { e.preventDefault(); closeFocus(); return; }
    if (focus.id || e.target instanceof HTMLSelectElement) return;
    const list = [...tilesBox.children];
    if (list.length === 0) return;
    const at = list.indexOf(document.activeElement);
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }[e.key];
    if (step !== undefined) {
      e.preventDefault();
      list[at < 0 ? 0 : Math.min(list.length - 1, Math.max(0, at + step))].focus();
    } else if ((e.key === "Enter" || e.key === " ") && at >= 0) {
      e.preventDefault();
      openFocus(list[at].dataset.pane);
    }
  });
  addEventListener("resize", () => layoutTiles());
  // A hidden page costs the server nothing: the stream closes, and opens again when shown.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { feed?.close(); feed = null; } else if (!feed) connect();
  });
`;
