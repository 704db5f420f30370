import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";

/**
 * Every program that watches files takes an inotify instance, 128 per user by default (an editor
 * takes several): with none left, the server follows its panes' logs by polling, and every answer
 * stays exact.
 */
/** Takes every inotify instance left for this user (inotify_init until it fails) and holds them until killed. */
const HOG = `import ctypes, sys, time
libc = ctypes.CDLL(None)
held = 0
while libc.inotify_init() >= 0:
    held += 1
print(held, flush=True)
time.sleep(600)`;

Deno.test("with no inotify instance left, logs are polled and commands still answer exactly", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  const hog = new Deno.Command("python3", { args: ["-c", HOG], stdout: "piped", stderr: "null" }).spawn();
  try {
    const reader = hog.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let said = "";
    while (!said.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      said += value;
    }
    assert.match(said, /^\d+\n/, "the instances were taken");
    reader.releaseLock();
    await using server = await TestServer.start({ dir });
    const result = await server.call<{ output: string; exit_code: number }>("execute_command", {
      command: "seq 1 3; echo done; false",
    });
    assert.deepEqual([result.output, result.exit_code], ["1\n2\n3\ndone", 1]);
    const process = await server.call<{ outcome: string }>("start_process", {
      command: "sh -c 'sleep 0.3; echo ready now; sleep 60'",
      ready: "ready now",
    });
    assert.equal(process.outcome, "ready");
    assert.match(server.stderr.join(""), /cannot watch the log directory .*: logs are read every 10 ms/);
  } finally {
    hog.kill("SIGKILL");
    await hog.status;
    await hog.stdout.cancel().catch(() => {});
  }
});
