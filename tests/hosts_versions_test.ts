import assert from "node:assert/strict";
import { tmuxVersion, until } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { PodmanLab } from "./helpers/podman.ts";
import { labServer } from "./helpers/lab_server.ts";
import type { TestServer } from "./helpers/harness.ts";

/**
 * A host's tmux can be another release than the local one (an Ubuntu 24.04 server's 3.4 under a
 * Mac's 3.7c): every answer is the same. `TMUXWRIGHT_TEST_HOST_TMUX` names a directory whose
 * `tmux` the ssh host and the container run (.ci/run sets it to other releases than the local
 * one, both ways); without it they run this machine's.
 */
const HOST_TMUX = Deno.env.get("TMUXWRIGHT_TEST_HOST_TMUX");

interface Exec {
  pane_id: string;
  output: string;
  exit_code: number | null;
  outcome?: string;
}

/** The calls an agent makes on a host, each with its exact answer. */
async function onHost(server: TestServer, host: string, want: string): Promise<void> {
  const version = await server.call<Exec>("execute_command", { host, command: 'tmux -V; echo "$((6*7)) \\$x"' });
  assert.deepEqual([version.output, version.exit_code], [`tmux ${want}\n42 $x`, 0]);
  const failed = await server.call<Exec>("execute_command", {
    pane_id: version.pane_id,
    command: "echo bad >&2; false",
  });
  assert.deepEqual([failed.output, failed.exit_code], ["bad", 1]);

  const web = await server.call<{ pane_id: string; outcome: string; matched_line: string }>("start_process", {
    host,
    name: `web-${host}`,
    command: "sh -c 'sleep 0.2; echo listening on 8080; sleep 600'",
    ready: "listening on",
  });
  assert.deepEqual([web.outcome, web.matched_line], ["ready", "listening on 8080"]);
  const asked = await server.call<Exec>("execute_command", { host, command: "read -p 'name? ' n; echo \"hi $n\"" });
  assert.equal(asked.outcome, "input");
  const answered = await server.call<{ output: string }>("send_keys", {
    pane_id: asked.pane_id,
    text: "bob",
    wait: ["shell"],
  });
  assert.match(answered.output, /hi bob/);

  const quick = await server.call<{ pane_id: string }>("create_pane", {
    host,
    name: `quick-${host}`,
    command: "sh -c 'echo quick-exit; sleep 0.5; exit 3'", // a host's log is its %output: see docs/DECISIONS.md
  });
  const listed = await until(
    () => server.call<{ panes: { pane_id: string; status: string; exit_code?: number }[] }>("list_panes", { host }),
    (l) => l.panes.some((p) => p.pane_id === quick.pane_id && p.status === "exited"),
  );
  assert.equal(listed.panes.find((p) => p.pane_id === quick.pane_id)?.exit_code, 3);
  const logs = await server.call<{ content: string }>("read_logs", { pane_id: quick.pane_id });
  assert.match(logs.content, /quick-exit/);
  await server.call("stop_process", { pane_id: web.pane_id });
}

Deno.test("an ssh host and a container whose tmux is another release than the local one give the same answers", async () => {
  const hostVersion = HOST_TMUX
    ? new TextDecoder().decode((await new Deno.Command(`${HOST_TMUX}/tmux`, { args: ["-V"] }).output()).stdout)
      .trim().replace(/^tmux /, "")
    : await tmuxVersion();
  await using ssh = await SshLab.start({ hostTmux: HOST_TMUX });
  await using pods = await PodmanLab.start();
  const box = await pods.container("versions", { tmuxBin: HOST_TMUX });
  // Both labs' hosts on one server: the ssh lab's alias and the container.
  await using server = await labServer(ssh, ["alpha"], {
    env: { TMUXWRIGHT_HOSTS: `alpha=alpha,box=podman://${box}` },
  });
  const local = await server.call<Exec>("execute_command", { command: "tmux -V" });
  assert.equal(local.output, `tmux ${await tmuxVersion()}`);
  await onHost(server, "alpha", hostVersion);
  await onHost(server, "box", hostVersion);
});
