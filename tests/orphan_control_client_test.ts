import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";
import { killUnseen } from "./helpers/unseen_death.ts";

// Found by the randomized stress: a server killed with SIGKILL leaves its `tmux -C attach` client
// behind, stuck (its stdin and stdout are gone), and a later `tmux kill-server` waits for it for
// good: every new tmux client is then told "server exited unexpectedly", and no server recovers.

async function controlClients(server: TestServer): Promise<string[]> {
  const out = await server.tmux("list-clients", "-F", "#{client_pid} #{client_control_mode} #{session_name}");
  return out.stdout.split("\n").filter((line) => / 1 /.test(line));
}

Deno.test("a crashed server's control client is killed when its workspace is reaped; tmux can still be restarted", async () => {
  const first = await TestServer.start();
  await first.call("execute_command", { command: "echo one" });
  const crashed = `tmuxwright-${first.pid}`;
  await killUnseen(first.pid); // its tmux side would end its workspace itself (server_death_test.ts)
  await first.close(false);
  // What such a crash can leave (seen in the stress; the timing decides): a control client on the
  // dead workspace whose stdout reader went first and then its stdin. Planted here exactly so.
  const socket = first.socket;
  new Deno.Command("sh", {
    args: ["-c", `sleep 0.3 | tmux -u -S '${socket}' -C attach-session -f no-output -t '=${crashed}' | true`],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const orphans = await until(
    async () => (await controlClients(first)).filter((line) => line.endsWith(` ${crashed}`)),
    (lines) => lines.length > 0,
  );
  await new Promise((r) => setTimeout(r, 600)); // its stdin has closed too: it is stuck
  const orphanPid = Number(orphans[0].split(" ")[0]);

  await using second = await TestServer.start({ dir: first.dir });
  await second.call("execute_command", { command: "echo two" }); // its start reaps the dead workspace
  const left = await until(
    () => controlClients(second),
    (lines) => !lines.some((line) => line.startsWith(`${orphanPid} `)),
  );
  assert.ok(!left.some((line) => line.endsWith(` ${crashed}`)), "no control client of the dead workspace is left");

  // tmux goes down and comes back: the server is served again, not "server exited unexpectedly".
  await second.tmux("kill-server");
  await until(() => second.tmux("list-sessions"), (out) => !/exited unexpectedly/.test(out.stderr));
  const again = await until(
    () => second.raw("execute_command", { command: "echo three" }),
    (r) => !r.isError,
    15_000,
  );
  assert.match(again.text, /"output":"three"/);
});
