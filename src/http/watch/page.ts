/**
 * The /watch page: a list of every workspace's panes (live, from /watch/events) and, for each pane
 * a person opens, a read-only terminal (xterm.js, DOM renderer: its text is in the page) fed by
 * the same stream, /watch/events?pane=%N: the current screen first, then the pane's output as it
 * comes. Scripts are same-origin files, so the Content-Security-Policy allows no inline or foreign one.
 * The page's script is in app_js.ts.
 */
export { WATCH_APP_JS } from "./app_js.ts";

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
nav li.host { margin-top: .8em; font-weight: bold; color: #ddd; border-bottom: 1px solid #333; }
nav li.host[data-state="unreachable"], nav li.host[data-state="reconnecting"] { color: #e88; }
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
