import assert from "node:assert/strict";
import { tmuxOneShot } from "../src/tmux/oneshot.ts";
import { TmuxError } from "../src/tmux/errors.ts";

Deno.test("a tmux client that does not answer is stopped and the call fails with an error saying what to do", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tw-oneshot-" });
  const socket = ["-S", `${dir}/s`, "-f", "/dev/null"];
  try {
    assert.equal((await tmuxOneShot([...socket, "new-session", "-d"])).code, 0);
    const started = performance.now();
    // run-shell without -b holds its client until the script ends: a client that does not answer.
    const error = await tmuxOneShot([...socket, "run-shell", "sleep 30"], undefined, 500).catch((e) => e);
    const took = performance.now() - started;
    assert.ok(error instanceof TmuxError, String(error));
    assert.equal(error.kind, "disconnected");
    assert.match(error.message, /did not answer within 500 ms.*retry/);
    assert.ok(took < 10_000, `took ${took} ms`);
    // The server is fine and the next call works.
    assert.equal((await tmuxOneShot([...socket, "display-message", "-p", "ok"])).stdout, "ok\n");
  } finally {
    await tmuxOneShot([...socket, "kill-server"]).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
