/**
 * One pane full-size, part of /watch/app.js (see app_js.ts): a read-only terminal (xterm.js,
 * loaded on the first open; its DOM renderer keeps the text in the page) fed by the pane's bytes
 * on the page's stream: its screen first, then its output as it comes. Esc returns to the wall.
 */
export const FOCUS_JS = `
  const view = document.getElementById("focus");
  const viewTitle = document.getElementById("focus-title");
  const viewBadge = document.getElementById("focus-state");
  const viewBox = document.getElementById("focus-term");
  let xterm = null;
  let term = null;
  let returnTo = null;

  function loadXterm() {
    xterm ??= new Promise((resolve, reject) => {
      const css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = "/watch/xterm.css";
      document.head.append(css);
      const js = document.createElement("script");
      js.src = "/watch/xterm.js";
      js.onload = resolve;
      js.onerror = () => { xterm = null; reject(new Error("cannot load the terminal")); };
      document.head.append(js);
    });
    return xterm;
  }

  function decode(base64) {
    const raw = atob(base64);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  /** Font size that fits the pane's cols × rows into the view (a terminal is never cropped). */
  function fitFont(cols, rows) {
    const box = viewBox.getBoundingClientRect();
    return Math.max(6, Math.min(16, Math.floor(Math.min(box.width / (cols * charRatio), box.height / (rows * 1.2)))));
  }

  async function openFocus(id) {
    if (!id) return;
    returnTo = document.activeElement;
    focus.id = id;
    view.hidden = false;
    view.dataset.pane = id;
    view.dataset.ready = "false";
    document.body.classList.add("focused");
    focusChanged();
    const q = new URLSearchParams(location.search);
    q.set("pane", id);
    history.replaceState(null, "", "/watch?" + q);
    try {
      await loadXterm();
    } catch (error) {
      viewBadge.textContent = error.message;
      return;
    }
    if (focus.id !== id) return;
    const p = panes.find((x) => x.pane_id === id) || { width: 80, height: 24 };
    if (!charRatio) measureRatio();
    term = new Terminal({ disableStdin: true, cols: p.width, rows: p.height, scrollback: 5000,
      fontSize: fitFont(p.width, p.height) });
    term.open(viewBox);
    const state = { unparsed: 0, behind: false };
    focus.handlers = [
      ["screen", (e) => {
        const s = JSON.parse(e.data);
        if (s.pane_id !== id || !term) return;
        state.behind = false;
        term.reset();
        term.resize(s.cols, s.rows);
        term.options.fontSize = fitFont(s.cols, s.rows);
        term.write(s.text);
        view.dataset.ready = "true";
      }],
      ["output", (e) => {
        const space = e.data.indexOf(" ");
        if (e.data.slice(0, space) !== id || !term || state.behind) return;
        const bytes = decode(e.data.slice(space + 1));
        // xterm parses writes later, in slices: past 512 KiB unparsed the view drops output, and once
        // it has drawn what it has, the stream starts again from the current screen.
        state.unparsed += bytes.length;
        if (state.unparsed > 524288) state.behind = true;
        term.write(bytes, () => {
          state.unparsed -= bytes.length;
          if (state.behind && state.unparsed === 0 && focus.id === id) connect();
        });
      }],
      ["gone", (e) => {
        if (JSON.parse(e.data).pane_id === id) viewBadge.textContent = "gone";
      }],
    ];
    connect();
  }

  function closeFocus() {
    focus.id = null;
    focus.handlers = null;
    term?.dispose();
    term = null;
    view.hidden = true;
    document.body.classList.remove("focused");
    const q = new URLSearchParams(location.search);
    q.delete("pane");
    history.replaceState(null, "", "/watch" + (q.toString() ? "?" + q : ""));
    connect();
    const tile = returnTo && returnTo.isConnected ? returnTo : tilesBox.children[0];
    tile?.focus();
  }

  /** The full-size view's title and state follow the pane list. */
  function focusChanged() {
    if (!focus.id) return;
    const p = panes.find((x) => x.pane_id === focus.id);
    viewTitle.textContent = p ? agentText(p) + " · " + where(p) : focus.id;
    viewBadge.textContent = p ? stateText(p) : "gone";
    view.dataset.state = p ? p.state : "gone";
  }

  document.getElementById("focus-close").addEventListener("click", () => closeFocus());
`;
