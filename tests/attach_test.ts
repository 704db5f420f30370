import assert from "node:assert/strict";
import { cleanEnv, startPermissions, TestServer, tmuxAt, until } from "./helpers/harness.ts";
import { killUnseen } from "./helpers/unseen_death.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** `tmuxwright attach ...` as a person runs it (not on a terminal: it prints the tmux command). */
async function attach(dir: string, ...args: string[]) {
  const out = await new Deno.Command("deno", {
    args: [
      "run",
      ...startPermissions(cleanEnv(), [dir]),
      MAIN,
      "attach",
      ...args,
      "--socket-path",
      `${dir}/s`,
      "--state-dir",
      `${dir}/state`,
    ],
    env: cleanEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("attach picks the newest running workspace, lists them all, and attaches to a chosen one", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twa" });
  const servers: TestServer[] = [];
  const start = async (args: string[] = []) => {
    const server = await TestServer.start({ dir, args });
    servers.push(server);
    return server;
  };
  try {
    assert.match((await attach(dir)).stderr, /No tmuxwright workspace is running on this tmux server/);
    const kept = await start(["--keep"]);
    await kept.call("create_pane", { name: "kept-pane", command: "sleep 600" });
    const keptPid = kept.pid;
    await kept.close(false);
    await until(
      () => tmuxAt(`${dir}/s`, "show-options", "-v", "-t", `=tmuxwright-${keptPid}:`, "@tmuxwright_kept"),
      (r) => r.stdout.trim() === "1",
    );
    const older = await start();
    await older.call("create_pane", { name: "api", command: "sleep 600" });
    const newer = await start();
    await newer.call("create_pane", { name: "web", command: "sleep 600" });
    await newer.call("create_pane", { command: "sleep 600" });
    const crashed = await start();
    await crashed.call("create_pane", { name: "doomed", command: "sleep 600" });
    const crashedPid = crashed.pid;
    await killUnseen(crashedPid); // its tmux side would end its workspace itself (server_death_test.ts)
    await until(async () => (await attach(dir, "--list")).stdout, (out) => /exited/.test(out));

    const list = await attach(dir, "--list");
    assert.equal(list.code, 0, list.stderr);
    const rows = list.stdout.trim().split("\n");
    assert.match(rows[0], /^WORKSPACE\s+PID\s+SERVER\s+CREATED\s+PANES$/);
    // Newest first, one row each, with its server's state and its panes.
    assert.equal(rows.length, 5);
    assert.match(rows[1], new RegExp(`^tmuxwright-${crashedPid}\\s+${crashedPid}\\s+exited\\s.*doomed$`));
    assert.match(rows[2], new RegExp(`^tmuxwright-${newer.pid}\\s+${newer.pid}\\s+running\\s.*web, %\\d+$`));
    assert.match(rows[3], new RegExp(`^tmuxwright-${older.pid}\\s+${older.pid}\\s+running\\s.*api$`));
    assert.match(rows[4], new RegExp(`^tmuxwright-${keptPid}\\s+${keptPid}\\s+kept\\s.*kept-pane$`));

    // Default: the newest whose server runs, read-only, saying what it attaches to.
    const newest = await attach(dir);
    assert.equal(newest.code, 0, newest.stderr);
    assert.equal(newest.stdout.trim(), `tmux -S ${dir}/s attach-session -r -t =tmuxwright-${newer.pid}`);
    assert.match(
      newest.stderr,
      new RegExp(
        `Attaching read-only to tmuxwright-${newer.pid} \\(server pid ${newer.pid}, running, panes: web, %\\d+\\); 3 other workspaces: tmuxwright attach --list`,
      ),
    );

    // A chosen one, by pid or by name.
    assert.equal(
      (await attach(dir, String(older.pid))).stdout.trim(),
      `tmux -S ${dir}/s attach-session -r -t =tmuxwright-${older.pid}`,
    );
    assert.equal(
      (await attach(dir, `tmuxwright-${keptPid}`)).stdout.trim(),
      `tmux -S ${dir}/s attach-session -r -t =tmuxwright-${keptPid}`,
    );
    const missing = await attach(dir, "4000000000");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^No workspace "4000000000" on this tmux server\. Workspaces:\nWORKSPACE/);
    const bad = await attach(dir, "web");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid workspace "web": give a server pid or a name like tmuxwright-1234/);
  } finally {
    await Promise.all(servers.map((s) => s.close(false)));
    await tmuxAt(`${dir}/s`, "kill-server");
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
