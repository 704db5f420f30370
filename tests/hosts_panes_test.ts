import assert from "node:assert/strict";
import { HOST_LOCK_NAME } from "../src/tmux/host_session_lock.ts";
import { type TestServer, until } from "./helpers/harness.ts";
import { SshLab } from "./helpers/sshd.ts";
import { labServer } from "./helpers/lab_server.ts";
import type { ExecResult, LogTail } from "./helpers/results.ts";

/** A server with the lab's hosts alpha and beta configured (ssh aliases of the same names), auditing into its dir. */
async function serverFor(lab: SshLab): Promise<TestServer> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  return await labServer(lab, ["alpha", "beta"], { dir, args: ["--audit", `${dir}/audit.jsonl`] });
}

Deno.test({
  name: "remote panes through the tools over real OpenSSH",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await SshLab.start();
    await using server = await serverFor(lab);
    let web = "";
    let svc = "";
    await t.step("create_pane with host makes the pane on that host, named and chained by NAME:%N", async () => {
      const created = await server.call<Record<string, string>>("create_pane", { host: "alpha", name: "web" });
      assert.match(created.pane_id, /^alpha:%\d+$/);
      assert.match(created.window_id, /^alpha:@\d+$/);
      assert.match(created.session_id, /^alpha:\$\d+$/);
      assert.equal(created.host, "alpha");
      assert.equal(created.attach_command, "tmuxwright attach --host alpha");
      web = created.pane_id;
      // It is a pane of alpha's tmux server, not of the local one.
      const remote = await lab.remoteTmux("alpha", "list-panes", "-a", "-F", "#{pane_id} #{@tmuxwright_name}");
      assert.match(remote.stdout, new RegExp(`^${web.slice("alpha:".length)} web$`, "m"));
      const local = await server.tmux("list-panes", "-a", "-F", "#{@tmuxwright_name}");
      assert.ok(!/^web$/m.test(local.stdout), local.stdout);
    });

    await t.step("execute_command on a remote pane: exact output and exit code; state persists", async () => {
      const first = await server.call<ExecResult & { host: string }>("execute_command", {
        pane_id: web,
        command: "cd /tmp && printf 'one\\ntwo\\n'; echo \"$TMUX_TMPDIR\"; (exit 7)",
      });
      assert.equal(first.exit_code, 7);
      assert.equal(first.output, `one\ntwo\n${lab.tmuxTmpdir("alpha")}`);
      assert.equal(first.pane_id, web);
      assert.equal(first.host, "alpha");
      const second = await server.call<ExecResult>("execute_command", { pane_id: "alpha:web", command: "pwd" });
      assert.equal(second.output, "/tmp");
      assert.equal(second.exit_code, 0);
      const multi = await server.call<ExecResult>("execute_command", {
        pane_id: web,
        command: 'for i in 1 2 3; do\n  echo "line $i"\ndone',
        cwd: "/",
      });
      assert.equal(multi.output, "line 1\nline 2\nline 3");
    });

    await t.step("send_keys, wait_for_text, capture_pane and read_logs on the remote pane", async () => {
      // The cursor from send_keys: output that came before wait_for_text started counts (as locally).
      const sent = await server.call<{ cursor: string }>("send_keys", {
        pane_id: web,
        text: "echo marker-$((6*7))",
        enter: true,
      });
      const waited = await server.call<Record<string, unknown>>("wait_for_text", {
        pane_id: web,
        pattern: "marker-42",
        cursor: sent.cursor,
        timeout_ms: 10_000,
      });
      assert.equal(waited.matched, true, JSON.stringify(waited));
      const captured = await server.call<{ text: string; pane_id: string }>("capture_pane", { pane_id: web });
      assert.match(captured.text, /^marker-42$/m);
      assert.equal(captured.pane_id, web);
      const logs = await server.call<LogTail>("read_logs", { pane_id: web });
      assert.match(logs.content, /marker-42/);
      assert.match(logs.content, /line 3/);
      // A host's owned panes start without pagers too.
      const pagers = await server.call<ExecResult>("execute_command", {
        pane_id: web,
        command: 'echo "$PAGER $GIT_PAGER"',
      });
      assert.equal(pagers.output, "cat cat");
    });

    await t.step("start_process with readiness, pane_state, watch_pane, capture_since, stop_process", async () => {
      const started = await server.call<Record<string, unknown>>("start_process", {
        host: "alpha",
        name: "svc",
        command: "sleep 0.3; echo 'listening on 8080'; sleep 600",
        ready: "listening on \\d+",
        timeout_ms: 20_000,
      });
      assert.equal(started.outcome, "ready", JSON.stringify(started));
      assert.match(String(started.pane_id), /^alpha:%\d+$/);
      svc = String(started.pane_id);
      const state = await server.call<Record<string, unknown>>("pane_state", { pane_id: "alpha:svc" });
      assert.equal(state.foreground_command, "sleep", JSON.stringify(state));
      const since = await server.call<{ cursor: string }>("capture_since", { pane_id: "alpha:svc" });
      assert.match(since.cursor, /^alpha:tw1\./);
      // A pane that keeps printing: the trigger fires on a line written after the watch began.
      const ticker = await server.call<Record<string, string>>("create_pane", {
        host: "alpha",
        command: "for i in $(seq 1 40); do sleep 0.5; echo tick-$i; done",
      });
      const watched = await server.call<Record<string, unknown>>("watch_pane", {
        pane_id: ticker.pane_id,
        triggers: ["pattern:tick-\\d+"],
        timeout_ms: 15_000,
      });
      assert.match(JSON.stringify(watched), /tick-\d+/);
      await server.call("kill_pane", { pane_id: ticker.pane_id });
      const stopped = await server.call<Record<string, unknown>>("stop_process", { pane_id: started.pane_id });
      assert.equal(stopped.stopped, true, JSON.stringify(stopped));
      const later = await server.call<{ text: string }>("capture_since", { cursor: since.cursor });
      assert.ok(typeof later.text === "string");
    });

    await t.step("run_in_repl and snapshot_pane on a remote pane", async () => {
      const repl = await server.call<Record<string, string>>("create_pane", { host: "alpha", command: "python3 -q" });
      // A REPL's first prompt: typed before it, the input would be read at that prompt and answered at the next.
      await until(
        () => server.call<{ text: string }>("capture_pane", { pane_id: repl.pane_id }),
        (c) => c.text.endsWith(">>>"),
      );
      const answer = await server.call<Record<string, unknown>>("run_in_repl", {
        pane_id: repl.pane_id,
        input: "print(6 * 7)",
        prompt: "^>>> $",
        timeout_ms: 15_000,
      });
      assert.match(String(answer.output), /42/, JSON.stringify(answer));
      const snap = await server.call<{ content: string }>("snapshot_pane", { pane_id: repl.pane_id, format: "text" });
      assert.match(snap.content, /42/);
      // The REPL's input asks its own question: back at once with outcome input.
      const asks = await server.call<Record<string, unknown>>("run_in_repl", {
        pane_id: repl.pane_id,
        input: "n = input('who? ')",
        prompt: "^>>> $",
        timeout_ms: 15_000,
      });
      assert.deepEqual([asks.outcome, asks.output], ["input", "who?"], JSON.stringify(asks));
      await server.call("kill_pane", { pane_id: repl.pane_id });
    });

    await t.step("execute_command on a remote pane hands back a question; the answer reaches it", async () => {
      const asked = await server.call<Record<string, unknown>>("execute_command", {
        pane_id: web,
        command: "read -p 'your name? ' n; echo \"hello $n\"",
        timeout_ms: 15_000,
      });
      assert.deepEqual([asked.outcome, asked.output, asked.exit_code], ["input", "your name?", null]);
      assert.ok(Number(asked.duration_ms) < 3_000, JSON.stringify(asked));
      const answered = await server.call<Record<string, unknown>>("send_keys", {
        pane_id: web,
        text: "Ada",
        wait: ["shell"],
      });
      assert.match(String(answered.output), /^hello Ada$/m, JSON.stringify(answered));
      // Waiting for the shell ends when a program asks instead.
      const repl = await server.call<Record<string, unknown>>("send_keys", {
        pane_id: web,
        text: "python3 -q",
        wait: ["shell"],
        timeout_ms: 15_000,
      });
      assert.deepEqual([repl.trigger, repl.outcome], ["input", "input"], JSON.stringify(repl));
      await server.call("send_keys", { pane_id: web, text: "exit()", wait: ["shell"] });
    });

    await t.step(
      "other shells on the host: the wrapper line sources a file the host's tmux server wrote",
      async () => {
        for (const shell of ["fish", "tcsh", "dash", "zsh"]) {
          const pane = await server.call<Record<string, string>>("create_pane", { host: "alpha", command: shell });
          const result = await server.call<ExecResult>("execute_command", {
            pane_id: pane.pane_id,
            command: 'echo "it\'s $HOME"\necho second; false',
            cwd: "/tmp",
          });
          assert.equal(
            result.output,
            `it's ${lab.home}\nsecond`,
            `${shell}: ${result.output}`,
          );
          assert.equal(result.exit_code, 1, shell);
          const where = await server.call<ExecResult>("execute_command", { pane_id: pane.pane_id, command: "pwd" });
          assert.equal(where.output, "/tmp", shell);
          await server.call("kill_pane", { pane_id: pane.pane_id });
        }
        const buffers = await lab.remoteTmux("alpha", "list-buffers", "-F", "#{buffer_name}");
        assert.ok(!buffers.stdout.includes("tmuxwright-cmd-"), buffers.stdout);
        // Command files live in the host's private tmux directory, one per pane.
        const socketDir = (await lab.remoteTmux("alpha", "display-message", "-p", "#{socket_path}")).stdout.trim()
          .replace(/\/[^/]*$/, "");
        const files = [...Deno.readDirSync(socketDir)].filter((e) =>
          e.name.startsWith("tmuxwright-") && !e.name.startsWith(HOST_LOCK_NAME)
        );
        // Command files, and the directory of the shell integration's start-up files.
        const commandFiles = files.filter((e) => e.isFile);
        assert.ok(
          commandFiles.length >= 1 && commandFiles.every((e) => e.name.endsWith(".sh")),
          JSON.stringify(files),
        );
        assert.ok(files.every((e) => e.isFile || /^tmuxwright-[0-9a-f]{8}$/.test(e.name)), JSON.stringify(files));
        assert.equal(Deno.statSync(socketDir).mode! & 0o077, 0, "in a directory private to the user");
      },
    );

    await t.step("split_pane, paste_text and send_keys with wait on a remote pane", async () => {
      const split = await server.call<Record<string, string>>("split_pane", { pane_id: web, direction: "right" });
      assert.match(split.pane_id, /^alpha:%\d+$/);
      assert.equal(split.split_from, web);
      await server.call("paste_text", { pane_id: split.pane_id, text: "echo pasted-$((1+1))", enter: true });
      await server.call("wait_for_text", { pane_id: split.pane_id, pattern: "pasted-2", timeout_ms: 10_000 });
      const sent = await server.call<Record<string, unknown>>("send_keys", {
        pane_id: split.pane_id,
        text: "echo waited-for",
        enter: true,
        wait: ["pattern:waited-for$"],
      });
      assert.match(JSON.stringify(sent), /waited-for/);
      await server.call("kill_pane", { pane_id: split.pane_id });
    });

    await t.step("list_panes and search_panes cover every host in use", async () => {
      await server.call("execute_command", { command: "echo local-needle" });
      await server.call("execute_command", { pane_id: web, command: "echo remote-needle" });
      const listed = await server.call<{ panes: Record<string, unknown>[] }>("list_panes", {});
      const hosts = listed.panes.map((p) => `${p.host} ${p.name}`);
      assert.ok(hosts.includes("local default"), hosts.join(", "));
      assert.ok(hosts.includes("alpha web"), hosts.join(", "));
      const only = await server.call<{ panes: Record<string, unknown>[] }>("list_panes", { host: "alpha" });
      assert.deepEqual(only.panes.map((p) => `${p.pane_id} ${p.name}`), [`${web} web`, `${svc} svc`]);
      const found = await server.call<{ matches: Record<string, unknown>[] }>("search_panes", { pattern: "needle" });
      const where = found.matches.map((m) => `${m.host}`).sort();
      assert.deepEqual(where, ["alpha", "local"]);
    });

    await t.step("hosts that are not configured are refused whatever they contain; mixed hosts too", async () => {
      for (const host of ["root@127.0.0.1", "-oProxyCommand=id", "a; id", "gamma"]) {
        const error = await server.callError("create_pane", { host });
        assert.match(error, /^HOST_NOT_CONFIGURED: /, error);
      }
      for (const host of [7, null, ["alpha"], { name: "alpha" }]) {
        const error = await server.callError("create_pane", { host });
        assert.match(error, /^INVALID_ARGUMENT: Invalid host/, error);
      }
      const prefixed = await server.callError("capture_pane", { pane_id: "gamma:%1" });
      assert.match(
        prefixed,
        /^HOST_NOT_CONFIGURED: Host "gamma" is not configured; this server can reach: local, alpha, beta/,
      );
      const mixed = await server.callError("create_pane", { host: "beta", split_from: "alpha:web" });
      assert.match(mixed, /^INVALID_ARGUMENT: Cannot act across hosts/);
    });

    await t.step("every audit record names the host the call acted on", async () => {
      const lines = (await Deno.readTextFile(`${server.dir}/audit.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
      const exec = lines.find((l) => l.tool === "execute_command" && String(l.pane_id).startsWith("alpha:"));
      assert.equal(exec?.host, "alpha", JSON.stringify(exec));
      const local = lines.find((l) => l.tool === "execute_command" && l.host === "local");
      assert.ok(local, "a local call is recorded as local");
      assert.ok(lines.every((l) => typeof l.host === "string"), "every record has a host");
    });

    await t.step("kill_pane on a remote pane; the server's end removes its remote panes", async () => {
      const other = await server.call<Record<string, string>>("create_pane", { host: "alpha", command: "sleep 600" });
      await server.call("kill_pane", { pane_id: other.pane_id });
      const panes = await lab.remoteTmux("alpha", "list-panes", "-a", "-F", "#{pane_id}");
      assert.ok(!panes.stdout.split("\n").includes(other.pane_id.slice("alpha:".length)));
      const socketDir = (await lab.remoteTmux("alpha", "display-message", "-p", "#{socket_path}")).stdout.trim()
        .replace(/\/[^/]*$/, "");
      await server.close();
      await until(
        () => lab.remoteTmux("alpha", "list-panes", "-a", "-F", "#{@tmuxwright_name}"),
        (left) => !/^web$/m.test(left.stdout),
      );
      const files = [...Deno.readDirSync(socketDir)].filter((e) =>
        e.name.startsWith("tmuxwright-") && !e.name.startsWith(HOST_LOCK_NAME)
      );
      assert.deepEqual(files, [], "its command files are removed");
    });
  },
});

Deno.test({
  name: "a cut link fails calls with HOST_UNREACHABLE, heals on the next call, and the log loses no line",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await SshLab.start();
    await using server = await serverFor(lab);
    const counter = await server.call<Record<string, string>>("create_pane", {
      host: "alpha",
      command: 'sleep 0.5; for i in $(seq 1 300); do echo "n=$i"; sleep 0.01; done; echo done-counting; sleep 600',
    });
    await server.call("wait_for_text", {
      pane_id: counter.pane_id,
      pattern: "n=20$",
      regex: true,
      timeout_ms: 20_000,
    });

    let before = "";
    await t.step("calls in flight and during the outage fail with HOST_UNREACHABLE naming the host", async () => {
      before = (await server.call<{ cursor: string }>("capture_since", { pane_id: counter.pane_id })).cursor;
      const inFlight = server.raw("wait_for_text", {
        pane_id: counter.pane_id,
        pattern: "never-x",
        timeout_ms: 60_000,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const cutAt = performance.now();
      lab.relay("alpha").blackhole();
      lab.relay("alpha").cut();
      const error = await inFlight;
      const failedAfter = performance.now() - cutAt;
      assert.equal(error.isError, true, error.text);
      assert.match(error.text, /^HOST_UNREACHABLE: Host "alpha" \(alpha\) is unreachable: the connection dropped/);
      assert.ok(failedAfter < 3_000, `failed after ${failedAfter} ms`);
      // Local panes are unaffected.
      const local = await server.call<ExecResult>("execute_command", { command: "echo still-here" });
      assert.equal(local.output, "still-here");
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // the counter goes on, unseen
    });

    await t.step("healed: the next call reconnects; the log has every line once and names the gap", async () => {
      lab.relay("alpha").heal();
      const back = await until(() => server.raw("capture_pane", { pane_id: counter.pane_id }), (r) => !r.isError);
      assert.match(back.text, /n=\d+/);
      await server.call("wait_for_text", {
        pane_id: counter.pane_id,
        pattern: "done-counting",
        since: "screen",
        timeout_ms: 30_000,
      });
      const log = await server.call<LogTail & { gaps?: Record<string, unknown>[] }>("read_logs", {
        pane_id: counter.pane_id,
        lines: 1000,
        max_output: 100_000,
      });
      const numbers = log.content.split("\n").map((line) => /^n=(\d+)$/.exec(line.trim())?.[1]).filter(Boolean);
      assert.deepEqual(numbers.map(Number), Array.from({ length: 300 }, (_, i) => i + 1), log.content);
      assert.equal(log.gaps?.length, 1, JSON.stringify(log.gaps));
      assert.equal(log.gaps![0].kind, "history");
      // A wait from a cursor taken before the cut sees a line written while the link was down.
      const gap = await server.call<{ content: string }>("read_logs", {
        pane_id: counter.pane_id,
        from_byte: log.gaps![0].from_byte,
        max_bytes: Number(log.gaps![0].to_byte) - Number(log.gaps![0].from_byte),
      });
      const during = /n=(\d+)\r\n/.exec(gap.content)?.[1];
      assert.ok(during, gap.content);
      const resumed = await server.call<Record<string, unknown>>("wait_for_text", {
        pane_id: counter.pane_id,
        cursor: before,
        pattern: `^n=${during}$`,
        regex: true,
        timeout_ms: 5_000,
      });
      assert.equal(resumed.matched, true, JSON.stringify(resumed));
      // A budget marker names the remote pane as the agent would (HOST:%N).
      const cut = await server.call<LogTail>("read_logs", { pane_id: counter.pane_id, lines: 1000, max_output: 256 });
      assert.match(cut.content, new RegExp(`read_logs \\{"pane_id":"${counter.pane_id}",`));
    });
  },
});

Deno.test({
  name: "an outage longer than the host's scrollback leaves one marker line in the log, and read_logs says so",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await using lab = await SshLab.start();
    await using server = await labServer(lab, ["alpha"], { env: { TMUXWRIGHT_HISTORY_LIMIT: "100" } });
    const pane = await server.call<Record<string, string>>("create_pane", {
      host: "alpha",
      command: "read go; seq 1 600; echo done-flooding; sleep 600",
    });
    await server.call("capture_pane", { pane_id: pane.pane_id }); // connected, the pane waits for its line
    lab.relay("alpha").blackhole();
    lab.relay("alpha").cut();
    await lab.remoteTmux("alpha", "send-keys", "-t", pane.pane_id.split(":")[1], "go", "Enter");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    lab.relay("alpha").heal();
    await until(() => server.raw("capture_pane", { pane_id: pane.pane_id }), (r) => !r.isError);
    await server.call("wait_for_text", { pane_id: pane.pane_id, pattern: "done-flooding", since: "screen" });
    const log = await server.call<LogTail & { gaps?: Record<string, unknown>[] }>("read_logs", {
      pane_id: pane.pane_id,
      max_output: 100_000,
    });
    const markers = log.content.split("\n").filter((line) => line.includes("[tmuxwright: output lost"));
    assert.equal(markers.length, 1, log.content);
    assert.match(markers[0], /output lost while host alpha was unreachable, \d\d:\d\d:\d\d–\d\d:\d\d:\d\d UTC\]/);
    assert.deepEqual(log.gaps?.map((g) => g.kind), ["lost"]);
    assert.match(log.content, /^600$/m, "the screen as it is follows the marker");
  },
});
