/**
 * The /watch page in headless Chromium, measured from inside the page:
 *  1. output → page latency: panes print `LAT <µs since epoch>` (bash's $EPOCHREALTIME, no process
 *     per line); the page notes when each line's `output` event arrives. One pane, then 20 at once.
 *  2. with 20 panes streaming: the page's JS heap, the renderer's CPU, and how late the page's
 *     own 50 ms timer fires (responsiveness);
 *  3. a flood (`seq` of ~30 MB into one pane): bytes per second sent to the page, and the time from
 *     the flood's end until the page shows its last line (it catches up from the screen).
 * Run: deno run -A scripts/bench_watch.ts
 */
import { HttpMcpServer } from "../tests/helpers/http_mcp.ts";
import { Browser } from "../tests/helpers/cdp.ts";
import type { Client } from "../tests/helpers/sdk_client.ts";

// Installed before the page's scripts: records every `output` event (arrival time, LAT stamps,
// bytes) and how late a 50 ms timer fires.
const PROBE = `
globalThis.__watchProbe = { lat: [], bytes: 0, events: 0, lag: [] };
const add = EventSource.prototype.addEventListener;
EventSource.prototype.addEventListener = function (type, listener, options) {
  if (type === "output") {
    const inner = listener;
    listener = (event) => {
      const now = Date.now();
      const raw = atob(event.data.slice(event.data.indexOf(" ") + 1));
      const probe = globalThis.__watchProbe;
      probe.bytes += raw.length;
      probe.events++;
      for (const m of raw.matchAll(/LAT (\\d{16})/g)) probe.lat.push(now - Number(m[1]) / 1000);
      inner(event);
    };
  }
  return add.call(this, type, listener, options);
};
let last = performance.now();
setInterval(() => { const now = performance.now(); globalThis.__watchProbe.lag.push(now - last - 50); last = now; }, 50);
`;

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms (n=${sorted.length})`;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return JSON.parse((result.content as { text: string }[])[0].text);
}

async function rendererCpuSeconds(): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmd = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (!cmd.includes("chromium") || !cmd.includes("--type=renderer")) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    total += (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return total;
}

async function openPage(browser: Browser, server: HttpMcpServer, panes: string[]): Promise<void> {
  const query = panes.map((p) => `pane=${encodeURIComponent(p)}`).join("&");
  await browser.navigate(`${server.url}/watch?${query}`);
  await browser.until(
    `document.querySelectorAll('article.panel[data-ready="true"]').length === ${panes.length}`,
    30_000,
  );
  await browser.evaluate(`__watchProbe.lat = []; __watchProbe.lag = []; __watchProbe.bytes = 0; 0`);
}

const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
console.log(`/watch in headless Chromium (load average ${load}):`);
await using server = await HttpMcpServer.start();
const { client } = await server.client();
const panes: string[] = [];
for (let i = 0; i < 20; i++) {
  panes.push((await call(client, "create_pane", { command: "bash --norc --noprofile" })).pane_id);
}
await using browser = await Browser.launch();
await browser.send("Page.addScriptToEvaluateOnNewDocument", { source: PROBE });

// 1. One pane: 40 lines, 100 ms apart.
await openPage(browser, server, panes.slice(0, 1));
await call(client, "execute_command", {
  pane_id: panes[0],
  command: "for i in $(seq 40); do echo LAT ${EPOCHREALTIME/./}; sleep 0.1; done",
  timeout_ms: 30_000,
});
await new Promise((r) => setTimeout(r, 300));
console.log(`  output → page, 1 pane:   ${stats(await browser.evaluate<number[]>("__watchProbe.lat"))}`);

// 2. 20 panes, each 50 lines 100 ms apart, all at once.
await openPage(browser, server, panes);
const cpu0 = await rendererCpuSeconds();
const started = performance.now();
await Promise.all(panes.map((pane) =>
  call(client, "execute_command", {
    pane_id: pane,
    command: "for i in $(seq 50); do echo LAT ${EPOCHREALTIME/./} line $i; sleep 0.1; done",
    timeout_ms: 60_000,
  })
));
await new Promise((r) => setTimeout(r, 300));
const wall = (performance.now() - started) / 1000;
const cpu = ((await rendererCpuSeconds()) - cpu0) / wall * 100;
const heap = await browser.send("Runtime.getHeapUsage") as { usedSize: number };
console.log(`  output → page, 20 panes: ${stats(await browser.evaluate<number[]>("__watchProbe.lat"))}`);
console.log(
  `  20 panes streaming: page JS heap ${(heap.usedSize / 1048576).toFixed(1)} MiB, renderer CPU ${cpu.toFixed(0)}% ` +
    `of one core, the page's 50 ms timer late by ${stats(await browser.evaluate<number[]>("__watchProbe.lag"))}`,
);

// 3. A flood into one pane.
await openPage(browser, server, panes.slice(0, 1));
const flood = performance.now();
await call(client, "execute_command", {
  pane_id: panes[0],
  command: "seq 1 4000000; echo FLOOD-END",
  timeout_ms: 120_000,
});
const floodEnd = performance.now();
const floodBytes = await browser.evaluate<number>("__watchProbe.bytes");
await browser.until(
  `document.querySelector('article.panel .xterm-rows')?.textContent.includes("FLOOD-END")`,
  60_000,
);
const caughtUp = performance.now() - floodEnd;
console.log(
  `  flood of ~30 MB: ${(floodBytes / 1048576).toFixed(1)} MiB sent to the page in ${
    ((floodEnd - flood) / 1000).toFixed(1)
  } s ` +
    `(${(floodBytes / 1048576 / ((floodEnd - flood) / 1000)).toFixed(1)} MiB/s); the page showed the last line ` +
    `${caughtUp.toFixed(0)} ms after the flood ended`,
);
await client.close();
