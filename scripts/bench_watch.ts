/**
 * The /watch wall in headless Chromium at 1500×900, measured from both ends:
 *  1. 16 tiles beside 16 producers writing ~1 MB/s each (15 floods and one pane printing a
 *     timestamp every 200 ms): the server's CPU with no page open and with the wall open (side by
 *     side, same floods), bytes and frames per second per tile sent to the page, the time from a
 *     line written to the line on its tile, the page's JS heap, the renderer's CPU and how late the
 *     page's own 50 ms timer fires (responsiveness);
 *  2. the wall open on 16 quiet panes: the server's CPU when nothing happens;
 *  3. one pane full-size (xterm.js, every byte) while a flood of ~30 MB runs into it: bytes per
 *     second sent, and the time from the flood's end until the page shows its last line.
 * Run: deno run -A scripts/bench_watch.ts
 */
import { HttpMcpServer } from "../tests/helpers/http_mcp.ts";
import { Browser } from "../tests/helpers/cdp.ts";
import { call } from "../tests/helpers/watch_scene.ts";

const WINDOW_S = 10;
// Installed before the page's scripts: counts `frame` events (bytes, per pane) and `output` bytes,
// notes when a LAT stamp first shows on a tile, and how late a 50 ms timer fires.
const PROBE = `
globalThis.__wall = { frames: 0, frameBytes: 0, outputBytes: 0, lat: [], lag: [], seen: new Set() };
const add = EventSource.prototype.addEventListener;
EventSource.prototype.addEventListener = function (type, listener, options) {
  const probe = globalThis.__wall;
  if (type === "frame") {
    const inner = listener;
    listener = (event) => { probe.frames++; probe.frameBytes += event.data.length; inner(event); };
  }
  if (type === "output") {
    const inner = listener;
    listener = (event) => { probe.outputBytes += event.data.length; inner(event); };
  }
  return add.call(this, type, listener, options);
};
new MutationObserver(() => {
  const now = Date.now();
  for (const m of (document.getElementById("tiles")?.textContent ?? "").matchAll(/LAT (\\d{16})/g)) {
    if (globalThis.__wall.seen.has(m[1])) continue;
    globalThis.__wall.seen.add(m[1]);
    globalThis.__wall.lat.push(now - Number(m[1]) / 1000);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
let last = performance.now();
setInterval(() => { const now = performance.now(); globalThis.__wall.lag.push(now - last - 50); last = now; }, 50);
`;

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return `median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms (n=${sorted.length})`;
}

/** A process's CPU seconds; with `children`, also those of its children that have ended (tmux's jobs). */
async function cpuSeconds(pid: number, children = false): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
  return (fields[11] + fields[12] + (children ? fields[13] + fields[14] : 0)) / 100;
}

/** CPU seconds of Chromium's processes: the page's renderer, and all of them (GPU, browser …). */
async function chromiumCpuSeconds(): Promise<{ renderer: number; all: number }> {
  const total = { renderer: 0, all: 0 };
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmd = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (!cmd.includes("chromium")) continue;
    const cpu = await cpuSeconds(Number(entry.name)).catch(() => 0);
    total.all += cpu;
    if (cmd.includes("--type=renderer")) total.renderer += cpu;
  }
  return total;
}

/** Bytes the panes have written so far: their logs in the state directory. */
async function loggedBytes(dir: string): Promise<number> {
  let total = 0;
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      if (entry.isDirectory) await walk(`${path}/${entry.name}`);
      else if (entry.isFile && entry.name.includes(".log")) total += (await Deno.stat(`${path}/${entry.name}`)).size;
    }
  };
  await walk(`${dir}/state`);
  return total;
}

/** The server's and tmux's CPU (% of one core) and the panes' bytes per second over WINDOW_S seconds. */
async function measure(
  server: HttpMcpServer,
  tmuxPid: number,
): Promise<{ cpu: number; tmux: number; written: number }> {
  const [cpu0, tmux0, bytes0] = [
    await cpuSeconds(server.pid),
    await cpuSeconds(tmuxPid),
    await loggedBytes(server.dir),
  ];
  await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
  const cpu = (await cpuSeconds(server.pid) - cpu0) / WINDOW_S * 100;
  const tmux = (await cpuSeconds(tmuxPid, true) - tmux0) / WINDOW_S * 100;
  return { cpu, tmux, written: (await loggedBytes(server.dir) - bytes0) / WINDOW_S };
}

// ~1 MB/s: 10 writes a second of 1,000 lines of 100 bytes (perl: no process per write).
const FLOOD =
  `perl -e '$|=1; $n=0; while (1) { $n++; print map { "flood $n line $_ " . ("x" x 80) . "\\n" } 1..1000; ` +
  `select(undef, undef, undef, 0.1) }'`;
const STAMPS = "while :; do echo LAT ${EPOCHREALTIME/./}; sleep 0.2; done";

const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
console.log(`/watch wall in headless Chromium at 1500×900 (load average ${load}):`);
await using server = await HttpMcpServer.start();
const { client } = await server.client({}, { name: "bench", version: "1" });
const panes: string[] = [];
for (let i = 0; i < 16; i++) {
  panes.push((await call(client, "create_pane", { name: `p${i}`, command: "bash --norc --noprofile" })).pane_id);
}
const tmuxPid = Number((await server.tmux("display-message", "-p", "#{pid}")).stdout.trim());
await using browser = await Browser.launch();
await browser.viewport(1500, 900);
await browser.send("Page.addScriptToEvaluateOnNewDocument", { source: PROBE });

// 2. The wall open on quiet panes.
await browser.navigate(`${server.url}/watch`);
await browser.until(`document.querySelectorAll("#tiles article.tile").length === 16`, 30_000);
await new Promise((r) => setTimeout(r, 3000));
const quiet = await measure(server, tmuxPid);

// 1. Floods: first with no page open, then with the wall.
for (const pane of panes.slice(1)) await call(client, "send_keys", { pane_id: pane, text: FLOOD });
await call(client, "send_keys", { pane_id: panes[0], text: STAMPS });
await browser.navigate("about:blank");
await new Promise((r) => setTimeout(r, 12_000)); // the wall's feed lingers 10 s after the last page
const alone = await measure(server, tmuxPid);
await browser.navigate(`${server.url}/watch`);
await browser.until(`document.querySelectorAll("#tiles article.tile").length === 16`, 30_000);
await new Promise((r) => setTimeout(r, 2000));
await browser.evaluate(`Object.assign(__wall, { frames: 0, frameBytes: 0, lat: [], lag: [] }); 0`);
const chromium0 = await chromiumCpuSeconds();
const watched = await measure(server, tmuxPid);
const chromium1 = await chromiumCpuSeconds();
const renderer = (chromium1.renderer - chromium0.renderer) / WINDOW_S * 100;
const browserCpu = (chromium1.all - chromium0.all) / WINDOW_S * 100;
const page = await browser.evaluate<{ frames: number; frameBytes: number; lat: number[]; lag: number[] }>(
  `({ frames: __wall.frames, frameBytes: __wall.frameBytes, lat: __wall.lat, lag: __wall.lag })`,
);
const heap = await browser.send("Runtime.getHeapUsage") as { usedSize: number };
const mb = (bytes: number) => (bytes / 1e6).toFixed(2);
console.log(
  `  16 producers (15 floods + 1 stamping): ${mb(alone.written)} MB/s written in all with no page, ` +
    `${mb(watched.written)} MB/s with the wall open (the page's Chromium runs on the same two cores)`,
);
console.log(
  `  server CPU: no page ${alone.cpu.toFixed(1)}%, wall open ${watched.cpu.toFixed(1)}% of one core ` +
    `(wall's cost ${(watched.cpu - alone.cpu).toFixed(1)} points); 16 quiet tiles ${quiet.cpu.toFixed(1)}%`,
);
console.log(
  `  tmux CPU (with its jobs: the wall's process-fact reads): no page ${alone.tmux.toFixed(0)}%, ` +
    `wall open ${watched.tmux.toFixed(0)}% (it parses every flood); ` +
    `16 quiet tiles ${quiet.tmux.toFixed(1)}%`,
);
console.log(
  `  sent to the page per tile: ${(page.frameBytes / WINDOW_S / 16 / 1024).toFixed(1)} KiB/s, ` +
    `${(page.frames / WINDOW_S / 16).toFixed(2)} frames/s (caps: 4 per tile, 40 in all)`,
);
console.log(`  a line written → on its tile: ${stats(page.lat)}`);
console.log(
  `  page: JS heap ${(heap.usedSize / 1048576).toFixed(1)} MiB, renderer CPU ${renderer.toFixed(0)}% of one core ` +
    `(all of Chromium ${browserCpu.toFixed(0)}%), ` +
    `its 50 ms timer late by ${stats(page.lag)}`,
);
for (const pane of panes) await call(client, "send_keys", { pane_id: pane, keys: ["C-c"] });

// 3. One pane full-size during a flood.
await browser.navigate(`${server.url}/watch?pane=${encodeURIComponent(panes[1])}`);
await browser.until(`document.getElementById("focus").dataset.ready === "true"`, 30_000);
await browser.evaluate(`__wall.outputBytes = 0; 0`);
const flood = performance.now();
await call(client, "execute_command", {
  pane_id: panes[1],
  command: "seq 1 4000000; echo FLOOD-END",
  timeout_ms: 120_000,
});
const floodEnd = performance.now();
const sent = await browser.evaluate<number>("__wall.outputBytes");
await browser.until(`document.querySelector("#focus-term .xterm-rows")?.textContent.includes("FLOOD-END")`, 60_000);
console.log(
  `  full-size during a ~30 MB flood: ${(sent / 1048576 / ((floodEnd - flood) / 1000)).toFixed(1)} MiB/s sent ` +
    `(base64); the last line shown ${(performance.now() - floodEnd).toFixed(0)} ms after the flood ended`,
);
await client.close();
