import assert from "node:assert/strict";
import { ControlClient } from "../src/tmux/control.ts";
import { tmuxAt } from "./helpers/harness.ts";

/**
 * A `tmux -C attach` client sends its attach-session to the server in a message of its own, after
 * it has handed over its stdin. When the client is slow to send it (a busy machine: seen over ssh,
 * where a healed host link lost the lines its pane wrote right after the log's gap was filled),
 * tmux runs the commands already waiting on stdin first, unattached, and sends no `%output` until
 * the attach. strace holds that one message back here (tmux 3.3a sends it with its 4th sendmsg),
 * so the slow client is the same every run.
 */
Deno.test({
  name: "a control client is ready only once tmux attached it, so no output after its first command is lost",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twa" });
    const socket = `${dir}/s`;
    const counter = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); echo n=$i; sleep 0.005; done";
    let client: ControlClient | null = null;
    try {
      const made = await tmuxAt(
        socket,
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "s",
        "-x",
        "80",
        "-y",
        "20",
        counter,
      );
      assert.equal(made.code, 0, made.stderr);
      const seen: string[] = [];
      let attachedBeforeReady = false;
      let ready = false;
      client = await ControlClient.launch({
        program: "strace",
        args: [
          ...["-f", "-qq", "-o", "/dev/null", "-e", "trace=sendmsg", "-e", "inject=sendmsg:delay_enter=400000:when=4"],
          ...["tmux", "-S", socket, "-C", "attach-session", "-t", "=s"],
        ],
        timeoutMs: 10_000,
        failure: (stderr, _code, cause) => new Error(`${cause.message}: ${stderr}`),
      }, {
        notification: (name) => name === "%session-changed" && !ready && (attachedBeforeReady = true),
        output: (_pane, bytes) => seen.push(new TextDecoder().decode(bytes)),
      });
      ready = true;
      assert.ok(attachedBeforeReady, "ready before tmux said the client is attached");
      // Every line after the last one this capture shows must come as %output.
      let from = 0;
      const [captured] = client.runMany([["capture-pane", "-p", "-S", "-", "-E", "-", "-t", "=s:"]], [
        () => from = seen.length,
      ]);
      const last = Math.max(...(await captured).map((line) => Number(/^n=(\d+)$/.exec(line)?.[1] ?? 0)));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = seen.slice(from).join("").match(/n=\d+/g) ?? [];
      assert.ok(after.length > 0, "no output after the capture");
      assert.equal(after[0], `n=${last + 1}`, `the capture ends at n=${last}; output resumed at ${after[0]}`);
    } finally {
      await client?.close();
      await tmuxAt(socket, "kill-server");
      await Deno.remove(dir, { recursive: true });
    }
  },
});
