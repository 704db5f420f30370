import assert from "node:assert/strict";
import { whileTraced } from "./helpers/strace.ts";
import { TestServer, until } from "./helpers/harness.ts";

// Found by the randomized stress under load: send_keys/paste_text with `wait: ["shell"]` saw the
// shell at its prompt again (a builtin like `echo` is done in a millisecond) before the output it
// printed had reached the pane's log, and returned `already: true` with an empty output. Here the
// log writer is held back, as a loaded machine or a host's link does: the wait must still end
// with what the line printed, on the shell's next prompt mark.

/** Every process whose command line holds `needle`, and their children (the writer's `dd`), through ps (no /proc grant). */
async function processesOf(needle: string): Promise<number[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,ppid=,args="] }).output();
  const rows = new TextDecoder().decode(out.stdout).split("\n").map((line) => {
    const [, pid, parent, args] = /^\s*(\d+)\s+(\d+)\s(.*)$/.exec(line) ?? [];
    return { pid: Number(pid), parent: Number(parent), args: args ?? "" };
  }).filter((row) => row.pid > 0);
  const found = new Set(
    rows.filter((row) => row.args.includes(needle) && row.args.includes("tmuxwright-log")).map((row) => row.pid),
  );
  for (const row of rows) if (found.has(row.parent)) found.add(row.pid);
  return [...found];
}

/**
 * Sends `signal` to each of `pids` still running: the writer's short-lived children (`ln`, `wc`)
 * listed by ps may have ended before the signal, and an ended process holds nothing back.
 */
function signalLiving(pids: number[], signal: Deno.Signal): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, signal);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

Deno.test("a shell wait ends with what the line printed even when the pane's log comes late", async () => {
  await using server = await TestServer.start();
  for (const tool of ["send_keys", "paste_text"]) {
    const pane = await server.call<{ pane_id: string }>("create_pane", {});
    await server.call("execute_command", { pane_id: pane.pane_id, command: "true" }); // the shell is drawn
    const writers = await processesOf(`${server.dir}/state`);
    assert.ok(writers.length > 0, "the pane's log writer is running");
    signalLiving(writers, "SIGSTOP");
    const resume = setTimeout(() => signalLiving(writers, "SIGCONT"), 700);
    try {
      const sent = await server.call<{ trigger: string; output: string; already?: boolean }>(tool, {
        pane_id: pane.pane_id,
        text: `echo late-${tool}`,
        enter: true,
        wait: ["shell"],
        timeout_ms: 10_000,
      });
      assert.equal(sent.trigger, "shell");
      assert.equal(sent.already, undefined, `${tool}: ${JSON.stringify(sent)}`);
      assert.equal(sent.output, `late-${tool}`, `${tool}: ${JSON.stringify(sent)}`);
    } finally {
      clearTimeout(resume);
      signalLiving(writers, "SIGCONT");
    }
    await server.call("kill_pane", { pane_id: pane.pane_id });
  }
});

/**
 * Runs `during` while the shell's next read(2) is held back `ms` (strace; tmux would continue a
 * stopped shell at once), so the line typed is read only after what the log holds back arrived.
 */
function withReadsDelayed<T>(pid: number, ms: number, during: () => Promise<T>): Promise<T> {
  return whileTraced(pid, ["-e", "trace=read", "-e", `inject=read:delay_enter=${ms * 1000}:when=1`], during);
}

/** Holds the pane log writers of `server` back for `ms` (or until `during` releases them) while `during` runs. */
async function withLogHeld<T>(server: TestServer, ms: number, during: (release: () => void) => Promise<T>): Promise<T> {
  const writers = await processesOf(`${server.dir}/state`);
  assert.ok(writers.length > 0, "the pane's log writer is running");
  signalLiving(writers, "SIGSTOP");
  const release = () => signalLiving(writers, "SIGCONT");
  const resume = setTimeout(release, ms);
  try {
    return await during(release);
  } finally {
    clearTimeout(resume);
    release();
  }
}

/**
 * Types `text` with a shell wait while the shell's next read is held back 900 ms; the log writer
 * is released after 300 ms, so what it held reaches the log before the shell reads the line.
 */
async function typeReadLate(
  server: TestServer,
  tool: string,
  paneId: string,
  text: string,
  shellPid: number,
  release: () => void,
): Promise<{ trigger: string; output: string }> {
  return await withReadsDelayed(shellPid, 900, async () => {
    const timer = setTimeout(release, 300);
    try {
      return await server.call(tool, { pane_id: paneId, text, enter: true, wait: ["shell"], timeout_ms: 10_000 });
    } finally {
      clearTimeout(timer);
    }
  });
}

Deno.test("a shell wait typed while the last command's prompt is still on its way ends on its own prompt", async () => {
  await using server = await TestServer.start();
  const pane = await server.call<{ pane_id: string }>("create_pane", {});
  await server.call("execute_command", { pane_id: pane.pane_id, command: "true" });
  const shellPid = Number((await server.tmux("display-message", "-p", "-t", pane.pane_id, "#{pane_pid}")).stdout);
  await server.call("send_keys", { pane_id: pane.pane_id, text: "sleep 0.3; echo before-line", enter: true });
  const sent = await withLogHeld(server, 60_000, async (release) => {
    await new Promise((r) => setTimeout(r, 700)); // the command has ended; its prompt is not in the log yet
    // The shell reads the next line only after its last prompt has reached the log, on its own.
    return await typeReadLate(server, "send_keys", pane.pane_id, "echo after-line", shellPid, release);
  });
  assert.equal(sent.trigger, "shell");
  assert.equal(sent.output, "after-line", JSON.stringify(sent));
});

Deno.test("a shell wait typed into a new pane whose first prompt is not in its log yet ends on the next prompt", async () => {
  await using server = await TestServer.start();
  const home = `${server.dir}/home`;
  await Deno.mkdir(home);
  await Deno.writeTextFile(`${home}/.bashrc`, "sleep 0.5\n"); // the first prompt comes after the log is held
  for (const tool of ["send_keys", "paste_text"]) {
    const pane = await server.call<{ pane_id: string }>("create_pane", { env: { HOME: home } });
    const sent = await withLogHeld(server, 60_000, async (release) => {
      // The first prompt is on the screen, not in the log; the shell reads the line late.
      await until(
        () => server.tmux("display-message", "-p", "-t", pane.pane_id, "#{cursor_x}"),
        (out) => Number(out.stdout) > 0,
      );
      const shellPid = Number((await server.tmux("display-message", "-p", "-t", pane.pane_id, "#{pane_pid}")).stdout);
      return await typeReadLate(server, tool, pane.pane_id, `echo first-${tool}`, shellPid, release);
    });
    assert.equal(sent.trigger, "shell");
    assert.equal(sent.output, `first-${tool}`, `${tool}: ${JSON.stringify(sent)}`);
    await server.call("kill_pane", { pane_id: pane.pane_id });
  }
});
