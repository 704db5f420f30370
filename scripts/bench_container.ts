/**
 * Containers as hosts through the tools: a real tmuxwright server (stdio, the official SDK client)
 * with a Podman container reached by `podman exec -i` and the same kind of container by the Docker
 * CLI on Podman's Docker API (tests/helpers/podman.ts), next to a local pane.
 *
 *   deno run -A scripts/bench_container.ts [calls]
 *
 * Side by side in one run, medians in ms: capture_pane and execute_command("true") on a local
 * pane, a podman:// pane and a docker:// pane, next to one `podman exec` (and one `docker exec`)
 * per call doing the same by hand; then how fast the errors come: a missing container's first
 * call, a call in flight when its container stops, the next call on the stopped container, and
 * the first call after it is started again.
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { PodmanLab } from "../tests/helpers/podman.ts";
import { median, timed } from "./timing.ts";

const calls = Number(Deno.args[0] ?? 30);
const ms = (value: number) => `${value.toFixed(1)} ms`;

await using lab = await PodmanLab.start();
const dockerHost = await lab.docker();
const [pod, box] = await Promise.all([lab.container("pod"), lab.container("box")]);
const server = await TestServer.start({
  env: {
    TMUXWRIGHT_HOSTS: `pod=podman://${pod},box=docker://${box},ghost=podman://${lab.missing("ghost")}`,
    DOCKER_HOST: dockerHost,
  },
});

/** One runtime exec per call, as a tool without a link would do it. */
async function execOnce(program: string, container: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(program, {
    args: ["exec", container, ...args],
    env: { DOCKER_HOST: dockerHost },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`${program} exec: ${new TextDecoder().decode(out.stderr)}`);
}

async function failedAfter(call: () => Promise<{ isError: boolean; text: string }>): Promise<number> {
  const started = performance.now();
  const result = await call();
  if (!result.isError) throw new Error(`expected an error, got ${result.text}`);
  return performance.now() - started;
}

try {
  const panes: Record<string, string> = {};
  for (const host of ["local", "pod", "box"]) {
    const created = await server.call<{ pane_id: string }>("create_pane", { host });
    panes[host] = created.pane_id;
    await server.call("execute_command", { pane_id: created.pane_id, command: "seq 1 40" });
  }
  const paneOf = (host: string) => panes[host].split(":").at(-1)!;
  const rows: [string, number][] = [];
  const row = async (name: string, call: () => Promise<unknown>, n = calls) =>
    rows.push([name, median(await timed(n, call))]);
  /** The same call on each host's pane in turn, `calls` rounds: a noisy moment costs every host alike. */
  const interleaved = async (label: string, call: (pane: string) => Promise<unknown>) => {
    const times: Record<string, number[]> = { local: [], pod: [], box: [] };
    for (let i = 0; i < calls; i++) {
      for (const host of Object.keys(times)) times[host].push(...await timed(1, () => call(panes[host])));
    }
    for (const [host, values] of Object.entries(times)) rows.push([`${label}, ${host} pane`, median(values)]);
  };

  await interleaved("capture_pane", (pane_id) => server.call("capture_pane", { pane_id }));
  await row(
    "one podman exec per call (tmux capture-pane)",
    () => execOnce("podman", pod, ["tmux", "capture-pane", "-p", "-t", paneOf("pod")]),
    Math.min(calls, 10),
  );
  await row(
    "one docker exec per call (tmux capture-pane)",
    () => execOnce("docker", box, ["tmux", "capture-pane", "-p", "-t", paneOf("box")]),
    Math.min(calls, 10),
  );
  await interleaved(
    'execute_command("true")',
    (pane_id) => server.call("execute_command", { pane_id, command: "true" }),
  );
  await row("one podman exec per call (sh -c true)", () => execOnce("podman", pod, ["sh", "-c", "true"]), 10);
  await row("one docker exec per call (sh -c true)", () => execOnce("docker", box, ["sh", "-c", "true"]), 10);

  const errors: [string, number][] = [];
  errors.push([
    "missing container, first call → HOST_UNREACHABLE",
    await failedAfter(() => server.raw("create_pane", { host: "ghost" })),
  ]);
  const inFlight = server.raw("wait_for_text", { pane_id: panes.pod, pattern: "never", timeout_ms: 60_000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const stopStarted = performance.now();
  const stopped = lab.stop(pod);
  await inFlight;
  errors.push([
    "container stopped: call in flight → HOST_UNREACHABLE (from podman stop)",
    performance.now() - stopStarted,
  ]);
  await stopped;
  await new Promise((resolve) => setTimeout(resolve, 300)); // the link has seen its exec end
  errors.push([
    "stopped container, next call → HOST_UNREACHABLE",
    await failedAfter(() => server.raw("create_pane", { host: "pod" })),
  ]);
  await lab.startAgain(pod);
  await new Promise((resolve) => setTimeout(resolve, 8_000)); // past any back-off: the dial itself is timed
  const back = performance.now();
  const created = await server.raw("create_pane", { host: "pod" });
  if (created.isError) throw new Error(created.text);
  errors.push(["started again: create_pane (dial, hub, first pane)", performance.now() - back]);

  const width = Math.max(...[...rows, ...errors].map(([name]) => name.length));
  console.log(`Containers as hosts, ${calls} calls each (medians), ${new Date().toISOString()}`);
  for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${ms(value)}`);
  const capture = (host: string) => rows.find(([name]) => name === `capture_pane, ${host} pane`)![1];
  const perExec = rows.find(([name]) => name.startsWith("one podman exec per call (tmux"))![1];
  console.log(
    `  capture_pane: podman link ${(capture("pod") / capture("local")).toFixed(2)}× local; ` +
      `one podman exec per call ${(perExec / capture("pod")).toFixed(0)}× the link`,
  );
  console.log("Errors (one run each):");
  for (const [name, value] of errors) console.log(`  ${name.padEnd(width)}  ${ms(value)}`);
} finally {
  await server.close();
}
