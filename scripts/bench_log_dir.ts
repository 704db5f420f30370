/**
 * A state directory that holds thousands of logs (one per pane within the retention days), side by
 * side with an empty one: a new server's first pane, then execute_command and a send_keys shell
 * wait (each reads its pane's log), and a listing of the log directory for scale.
 *
 *   deno run -A scripts/bench_log_dir.ts [logs] [calls]
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { median } from "./timing.ts";

const LOGS = Number(Deno.args[0] ?? 5000);
const CALLS = Number(Deno.args[1] ?? 40);

/** A state directory with `count` logs of gone panes (a segment, its link, a registry line each). */
async function stateWith(count: number): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twbench" });
  const logs = `${dir}/state/logs`;
  await Deno.mkdir(logs, { recursive: true, mode: 0o700 });
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = `${logs}/1-${i}-bench.log`;
    await Deno.writeTextFile(`${path}.0000000000000000`, `line ${i}\n`);
    await Deno.symlink(`1-${i}-bench.log.0000000000000000`, path);
    lines.push(
      JSON.stringify({
        pane_id: `%${i}`,
        name: null,
        session: "gone",
        socket: null,
        owner_pid: 1,
        created: new Date().toISOString(),
        path,
      }),
    );
  }
  await Deno.writeTextFile(`${logs}/registry.jsonl`, lines.join("\n") + (count > 0 ? "\n" : ""));
  return dir;
}

async function measure(count: number): Promise<Record<string, number>> {
  const dir = await stateWith(count);
  const listing = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    for await (const _ of Deno.readDir(`${dir}/state/logs`));
    listing.push(performance.now() - t);
  }
  const server = await TestServer.start({ dir });
  try {
    let t = performance.now();
    const pane = await server.call<{ pane_id: string }>("create_pane", {});
    const firstPane = performance.now() - t;
    const exec: number[] = [];
    const send: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      t = performance.now();
      await server.call("execute_command", { pane_id: pane.pane_id, command: `echo e${i}` });
      exec.push(performance.now() - t);
      t = performance.now();
      await server.call("send_keys", { pane_id: pane.pane_id, text: `echo s${i}`, wait: ["shell"] });
      send.push(performance.now() - t);
    }
    return {
      "listing the log directory": median(listing),
      "first create_pane": firstPane,
      "execute_command (median)": median(exec),
      "send_keys wait shell (median)": median(send),
    };
  } finally {
    await server.close();
  }
}

const empty = await measure(0);
const full = await measure(LOGS);
console.log(`| measure | empty state dir | ${LOGS} logs | ratio |`);
console.log("| --- | ---: | ---: | ---: |");
for (const name of Object.keys(empty)) {
  console.log(
    `| ${name} | ${empty[name].toFixed(1)} ms | ${full[name].toFixed(1)} ms | ${
      (full[name] / empty[name]).toFixed(2)
    }× |`,
  );
}
