/**
 * The /watch page: the wall (every pane a live tile, fed by /watch/events) and one pane
 * full-size on demand. Scripts are same-origin files, so the Content-Security-Policy allows no
 * inline or foreign one; the page's script is in app_js.ts, xterm.js loads only for the full-size view.
 */
export const WATCH_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tmuxwright: watch</title>
<link rel="stylesheet" href="/watch/watch.css">
<script src="/watch/app.js" defer></script>
</head>
<body>
<header id="bar">
<h1>tmuxwright</h1>
<span id="summary" role="status">connecting…</span>
<span id="hosts"></span>
<span id="filters">
<label>agent <select id="f-agent"></select></label>
<label>host <select id="f-host"></select></label>
<label>state <select id="f-state">
<option value="">all states</option>
<option value="person">needs a person</option>
<option value="waiting">waiting for input</option>
<option value="running">running</option>
<option value="idle">idle</option>
<option value="exited">exited</option>
</select></label>
</span>
</header>
<div id="questions" role="alert" hidden></div>
<main id="wall">
<section id="tiles" aria-label="Panes"></section>
<aside id="folded" aria-label="Quieter panes" hidden><h2></h2><ol></ol></aside>
</main>
<section id="focus" aria-label="Pane full-size" hidden>
<header><h2 id="focus-title"></h2><span id="focus-state" role="status"></span>
<button type="button" id="focus-close">Back to the wall (Esc)</button></header>
<div id="focus-term"></div>
</section>
</body>
</html>
`;

export const WATCH_CSS = `
html, body { height: 100%; }
body { margin: 0; font: 13px system-ui, sans-serif; background: #111; color: #ddd; display: flex;
  flex-direction: column; overflow: hidden; }
#bar { display: flex; gap: 1em; align-items: center; padding: 4px 10px; background: #1b1b1b; flex: none;
  flex-wrap: wrap; }
#bar h1 { font-size: 1.1em; margin: 0; }
#filters { margin-left: auto; display: flex; gap: .6em; }
select { background: #222; color: #ddd; border: 1px solid #444; font: inherit; }
.host { padding: 0 .4em; border: 1px solid #444; border-radius: 3px; }
.host[data-state="unreachable"], .host[data-state="reconnecting"] { color: #f88; border-color: #a44; }
#questions { background: #432; color: #fc8; padding: 2px 10px; flex: none; }
#questions p { margin: 2px 0; }
#wall { flex: 1; min-height: 0; display: flex; gap: 6px; padding: 6px; }
#tiles { flex: 1; min-width: 0; display: grid; gap: 6px; }
.tile { display: flex; flex-direction: column; min-width: 0; min-height: 0; background: #000;
  border: 1px solid #333; border-radius: 3px; cursor: pointer; overflow: hidden; }
.tile:focus { outline: 2px solid #6af; outline-offset: -1px; }
.tile > header { display: flex; gap: .5em; align-items: baseline; padding: 1px 5px; background: #1b1b1b;
  white-space: nowrap; overflow: hidden; flex: none; height: 18px; box-sizing: border-box; font-size: 12px; }
.agent { font-weight: bold; color: #9cf; }
.where { color: #999; overflow: hidden; text-overflow: ellipsis; }
.badge { margin-left: auto; padding: 0 .4em; border-radius: 3px; background: #263; color: #cfc;
  overflow: hidden; text-overflow: ellipsis; }
[data-state="idle"] .badge, #focus[data-state="idle"] #focus-state { background: #333; color: #ccc; }
[data-state="exited"] .badge { background: #333; color: #aaa; }
[data-state="gone"] .badge { background: #222; color: #888; }
.tile[data-needs="true"] { border-color: #e83; }
.tile[data-needs="true"] .badge { background: #a40; color: #fff; }
.tile[data-state="waiting"] .badge { background: #b60; color: #fff; }
.screen { flex: 1; min-height: 0; overflow: hidden; display: flex; flex-direction: column; padding: 1px 3px; font-family: ui-monospace, "DejaVu Sans Mono", monospace;
  line-height: 1.2; white-space: pre; color: #ddd; }
.screen.wrap { white-space: pre-wrap; word-break: break-all; justify-content: flex-end; }
.row { min-height: 1.2em; }
.probe { position: absolute; visibility: hidden; font: 100px ui-monospace, "DejaVu Sans Mono", monospace;
  white-space: pre; }
#folded { width: 300px; flex: none; overflow: auto; }
#folded h2 { font-size: 1em; margin: 0 0 4px; color: #aaa; }
#folded ol { list-style: none; margin: 0; padding: 0; }
#folded button { width: 100%; text-align: left; background: #1b1b1b; color: #ddd; border: 1px solid #333;
  margin: 1px 0; padding: 2px 5px; font: inherit; cursor: pointer; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
#focus { position: fixed; inset: 30px 0 0 0; background: #000; display: flex; flex-direction: column; }
#focus[hidden] { display: none; }
#focus > header { display: flex; gap: 1em; align-items: center; padding: 4px 10px; background: #1b1b1b; }
#focus h2 { font-size: 1em; margin: 0; }
#focus-state { padding: 0 .4em; border-radius: 3px; background: #263; }
#focus[data-state="waiting"] #focus-state { background: #b60; }
#focus button { margin-left: auto; }
#focus-term { flex: 1; min-height: 0; overflow: hidden; padding: 4px; }
`;
