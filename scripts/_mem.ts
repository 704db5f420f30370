import { TestServer } from "../tests/helpers/harness.ts";
await using server = await TestServer.start();
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${server.pid}/status`))![1]) / 1024;
const streams: string[] = [];
for (let i = 0; i < 20; i++) {
  streams.push(
    (await server.call<{ pane_id: string }>("create_pane", {
      command: "while :; do seq -f 'stream line %g of a pane under watch' 1 200; sleep 0.05; done",
    })).pane_id,
  );
}
const watches = streams.map((pane_id) =>
  server.call("watch_pane", { pane_id, triggers: ["pattern:NEVER-MATCHES"], timeout_ms: 150_000 })
);
const samples: string[] = [];
const t0 = performance.now();
while (performance.now() - t0 < 150_000) {
  samples.push(rss().toFixed(0));
  await new Promise((r) => setTimeout(r, 10000));
}
console.log(samples.join(" "));
await Promise.all(watches);
console.log("after watches end", rss().toFixed(0));
