/**
 * The wall's drawing, part of /watch/app.js (see app_js.ts): a frame's rows (text with SGR colour
 * sequences, as tmux's capture-pane -e writes them) become rows of spans, scaled so the widest
 * row fits the tile and the latest rows sit at its bottom; and the grid that fits N tiles into
 * the window with the largest text.
 */
export const WALL_RENDER_JS = `
  const PALETTE = ["#000", "#c33", "#3a3", "#cc3", "#46d", "#c3c", "#3cc", "#ccc",
    "#666", "#f55", "#5f5", "#ff5", "#78f", "#f5f", "#5ff", "#fff"];
  const MIN_FONT = 8;
  const MAX_FONT = 14;
  const LINE_HEIGHT = 1.2;
  /** A monospace glyph's advance as a fraction of the font size, measured once. */
  let charRatio = 0;

  function measureRatio() {
    const probe = document.createElement("span");
    probe.className = "probe";
    probe.textContent = "M".repeat(100);
    document.body.append(probe);
    charRatio = probe.getBoundingClientRect().width / 100 / 100 || 0.6;
    probe.remove();
  }

  function colour256(n) {
    if (n < 16) return PALETTE[n];
    if (n >= 232) { const v = 8 + (n - 232) * 10; return "rgb(" + v + "," + v + "," + v + ")"; }
    const c = n - 16;
    const step = (x) => (x === 0 ? 0 : 55 + x * 40);
    return "rgb(" + step(Math.floor(c / 36)) + "," + step(Math.floor(c / 6) % 6) + "," + step(c % 6) + ")";
  }

  /** Applies one SGR parameter list to the pen (bold, colours, inverse …). */
  function applySgr(pen, params) {
    const p = params === "" ? [0] : params.split(/[;:]/).map(Number);
    for (let i = 0; i < p.length; i++) {
      const n = p[i];
      if (n === 0) { pen.fg = null; pen.bg = null; pen.bold = false; pen.dim = false; pen.italic = false; pen.under = false; pen.inverse = false; }
      else if (n === 1) pen.bold = true;
      else if (n === 2) pen.dim = true;
      else if (n === 3) pen.italic = true;
      else if (n === 4) pen.under = true;
      else if (n === 7) pen.inverse = true;
      else if (n === 22) { pen.bold = false; pen.dim = false; }
      else if (n === 23) pen.italic = false;
      else if (n === 24) pen.under = false;
      else if (n === 27) pen.inverse = false;
      else if (n >= 30 && n <= 37) pen.fg = PALETTE[n - 30];
      else if (n >= 90 && n <= 97) pen.fg = PALETTE[n - 82];
      else if (n === 39) pen.fg = null;
      else if (n >= 40 && n <= 47) pen.bg = PALETTE[n - 40];
      else if (n >= 100 && n <= 107) pen.bg = PALETTE[n - 92];
      else if (n === 49) pen.bg = null;
      else if ((n === 38 || n === 48) && p[i + 1] === 5) {
        const c = colour256(p[i + 2] || 0);
        if (n === 38) pen.fg = c; else pen.bg = c;
        i += 2;
      } else if ((n === 38 || n === 48) && p[i + 1] === 2) {
        const c = "rgb(" + (p[i + 2] || 0) + "," + (p[i + 3] || 0) + "," + (p[i + 4] || 0) + ")";
        if (n === 38) pen.fg = c; else pen.bg = c;
        i += 4;
      }
    }
  }

  /** One screen row as an element: its text in spans (one per run of the same colours). */
  function drawRow(line, pen) {
    const row = document.createElement("div");
    row.className = "row";
    const parts = line.split(/\\x1b\\[([0-9;:]*)m/);
    for (let i = 0; i < parts.length; i++) {
      if (i % 2 === 1) { applySgr(pen, parts[i]); continue; }
      const text = parts[i].replace(/\\x1b[^a-zA-Z]*[a-zA-Z]?/g, "");
      if (text === "") continue;
      const plain = !pen.fg && !pen.bg && !pen.bold && !pen.dim && !pen.italic && !pen.under && !pen.inverse;
      if (plain) { row.append(text); continue; }
      const span = document.createElement("span");
      span.textContent = text;
      const fg = pen.inverse ? (pen.bg || "#111") : pen.fg;
      const bg = pen.inverse ? (pen.fg || "#ddd") : pen.bg;
      if (fg) span.style.color = fg;
      if (bg) span.style.background = bg;
      if (pen.bold) span.style.fontWeight = "bold";
      if (pen.dim) span.style.opacity = "0.7";
      if (pen.italic) span.style.fontStyle = "italic";
      if (pen.under) span.style.textDecoration = "underline";
      row.append(span);
    }
    if (row.childNodes.length === 0) row.append(" ");
    return row;
  }

  /** The rows that hold something: trailing blank rows below the cursor are left out. */
  function shownLines(frame) {
    let last = frame.cursor[1];
    for (let i = frame.lines.length - 1; i > last; i--) {
      if (plainOf(frame.lines[i]) !== "") { last = i; break; }
    }
    return frame.lines.slice(0, last + 1);
  }

  const plainOf = (line) => line.replace(/\\x1b\\[[0-9;:]*m/g, "").replace(/\\s+$/, "");

  /** Runs of blank rows become one (a screen taller than its tile keeps its text, not its gaps). */
  function squeezeBlanks(lines) {
    return lines.filter((line, i) => i === 0 || plainOf(line) !== "" || plainOf(lines[i - 1]) !== "");
  }

  /**
   * Draws a frame into a tile's screen box, the terminal scaled to the box: the font fits the
   * rows that hold something (from the top to the cursor or the last written row) into its
   * height and the widest of them into its width, between MIN_FONT and MAX_FONT px. At the
   * minimum, runs of blank rows become one and the latest rows that fit are shown (older ones
   * leave at the top, and are not in the page); rows too wide even then wrap, shown from the bottom.
   */
  function drawFrame(box, frame) {
    if (!charRatio) measureRatio();
    // The box's size is measured when the grid is laid out (reading it here would force a layout per frame).
    box.size ??= { width: box.clientWidth, height: box.clientHeight };
    const width = box.size.width - 6;
    const height = box.size.height - 2;
    const fonts = (lines) => {
      let cols = 20;
      for (const line of lines) cols = Math.max(cols, plainOf(line).length);
      return { byWidth: width / (cols * charRatio), byHeight: height / (Math.max(lines.length, 4) * LINE_HEIGHT) };
    };
    let lines = shownLines(frame);
    let fit = fonts(lines);
    if (fit.byHeight < MIN_FONT) {
      lines = squeezeBlanks(lines);
      fit = fonts(lines);
    }
    const font = Math.floor(Math.max(MIN_FONT, Math.min(MAX_FONT, fit.byWidth, fit.byHeight)) * 10) / 10;
    const wrap = fit.byWidth < MIN_FONT;
    box.style.fontSize = font + "px";
    box.classList.toggle("wrap", wrap);
    const count = wrap ? lines.length : Math.max(1, Math.floor(height / (font * LINE_HEIGHT)));
    const rows = document.createElement("div");
    rows.className = "rows";
    const pen = {};
    lines.slice(0, Math.max(0, lines.length - count)).forEach((line) => applyLine(pen, line));
    for (const line of lines.slice(-count)) rows.append(drawRow(line, pen));
    box.replaceChildren(rows);
  }

  /** The colours a row leaves set, for rows not drawn. */
  function applyLine(pen, line) {
    for (const m of line.matchAll(/\\x1b\\[([0-9;:]*)m/g)) applySgr(pen, m[1]);
  }

  /**
   * Columns for n tiles in a w×h area: the count that gives a tile of a typical terminal
   * (80×24) the largest font.
   */
  function gridFor(n, w, h) {
    if (!charRatio) measureRatio();
    let best = { cols: 1, rows: Math.max(1, n), font: 0 };
    for (let cols = 1; cols <= Math.max(1, n); cols++) {
      const rows = Math.ceil(n / cols);
      const tileW = (w - (cols - 1) * 6) / cols;
      const tileH = (h - (rows - 1) * 6) / rows - 22;
      const font = Math.min(tileW / (80 * charRatio), tileH / (24 * LINE_HEIGHT));
      if (font > best.font) best = { cols, rows, font };
    }
    return best;
  }
`;
