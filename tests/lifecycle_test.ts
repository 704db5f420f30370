import assert from "node:assert/strict";
import { dirname } from "node:path";
import { cleanEnv, removeEventually, startPermissions, tmuxAt, until } from "./helpers/harness.ts";
import { killUnseen } from "./helpers/unseen_death.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A server process driven with raw JSON-RPC lines, so the test controls stdin and signals itself. */
class RawServer {
  readonly child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: AsyncIterator<string>;
  /** Everything the server printed on stderr, once it has exited. */
  readonly stderr: Promise<string>;
  #id = 0;

  constructor(readonly socket: string, stateDir: string, args: string[] = []) {
    this.child = new Deno.Command("deno", {
      args: [
        "run",
        ...startPermissions(cleanEnv(), [dirname(socket)]),
        MAIN,
        "--socket-path",
        socket,
        "--state-dir",
        stateDir,
        ...args,
      ],
      env: cleanEnv(),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.stderr = new Response(this.child.stderr).text();
    this.#writer = this.child.stdin.getWriter();
    this.#lines = this.child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(lineSplitter())
      [Symbol.asyncIterator]();
  }

  /** Sends a request without reading its answer (a call still running when the server stops). */
  async send(method: string, params: Record<string, unknown>): Promise<number> {
    const id = ++this.#id;
    await this.#writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"));
    return id;
  }

  async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = await this.send(method, params);
    for (;;) {
      const { value, done } = await this.#lines.next();
      if (done) throw new Error("server closed stdout");
      const message = JSON.parse(value);
      if (message.id === id) return message.result;
    }
  }

  async initialize(): Promise<void> {
    await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    });
    await this.#writer.write(
      new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n"),
    );
  }

  async createPane(): Promise<string> {
    const result = await this.request("tools/call", { name: "create_pane", arguments: { name: "work" } });
    return JSON.parse((result.content as { text: string }[])[0].text).pane_id;
  }

  closeStdin(): Promise<void> {
    return this.#writer.close();
  }
}

function lineSplitter(): TransformStream<string, string> {
  let buffer = "";
  return new TransformStream({
    transform(chunk, controller) {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) if (line.trim()) controller.enqueue(line);
    },
  });
}

async function workspaces(socket: string): Promise<string[]> {
  const out = await tmuxAt(socket, "list-sessions", "-F", "#{session_name}");
  return out.stdout.split("\n").filter((n) => n.startsWith("tmuxwright-"));
}

async function withDir(fn: (socket: string, state: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw" });
  try {
    await fn(`${dir}/s`, `${dir}/state`);
  } finally {
    await tmuxAt(`${dir}/s`, "kill-server");
    await removeEventually(dir); // the link scripts that just ended finish there first
  }
}

for (const how of ["stdin EOF", "SIGTERM", "SIGINT"] as const) {
  Deno.test(`on ${how} the server removes its workspace and exits within 1 s`, async () => {
    await withDir(async (socket, state) => {
      // A session the server did not create must survive.
      await tmuxAt(socket, "-f", "/dev/null", "new-session", "-d", "-s", "users-own");
      const server = new RawServer(socket, state);
      await server.initialize();
      await server.createPane();
      assert.equal((await workspaces(socket)).length, 1);
      const started = performance.now();
      if (how === "stdin EOF") await server.closeStdin();
      else server.child.kill(how);
      const status = await server.child.status;
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 1000, `exited after ${elapsed.toFixed(0)} ms`);
      assert.equal(status.code, 0);
      assert.deepEqual(await workspaces(socket), []);
      assert.equal((await tmuxAt(socket, "has-session", "-t", "=users-own")).code, 0);
      if (how !== "stdin EOF") await server.closeStdin().catch(() => {});
    });
  });

  Deno.test(`on ${how} while calls wait on running commands, no session is made again or left`, async () => {
    await withDir(async (socket, state) => {
      const server = new RawServer(socket, state);
      await server.initialize();
      const pane = await server.createPane();
      // Calls in flight when the end comes: their own ends (an interrupt, a look) must not dial tmux again.
      await server.send("tools/call", { name: "execute_command", arguments: { command: "sleep 30" } });
      await server.send("tools/call", {
        name: "execute_command",
        arguments: { pane_id: pane, command: "sleep 30", timeout_ms: 60_000 },
      });
      // Both commands run (their calls wait on them) before the end comes.
      const sleeping = async () =>
        (await tmuxAt(socket, "list-panes", "-a", "-F", "#{pane_current_command}")).stdout.split("\n")
          .filter((command) => command === "sleep").length;
      await until(sleeping, (n) => n === 2, 15_000);
      if (how === "stdin EOF") await server.closeStdin();
      else server.child.kill(how);
      assert.equal((await server.child.status).code, 0);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // a session made late would be there by now
      assert.deepEqual(await workspaces(socket), []);
      if (how !== "stdin EOF") await server.closeStdin().catch(() => {});
    });
  });

  Deno.test(`on ${how} while a command prints and its log is followed, stderr says only why it stops`, async () => {
    await withDir(async (socket, state) => {
      const server = new RawServer(socket, state);
      await server.initialize();
      const pane = await server.createPane();
      // A call in flight that follows the pane's log while the pane writes to it.
      await server.send("tools/call", {
        name: "wait_for_text",
        arguments: { pane_id: pane, pattern: "never printed", timeout_ms: 60_000 },
      });
      await server.request("tools/call", {
        name: "send_keys",
        arguments: { pane_id: pane, text: "yes tick" },
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (how === "stdin EOF") await server.closeStdin();
      else server.child.kill(how);
      assert.equal((await server.child.status).code, 0);
      const lines = (await server.stderr).split("\n").filter((line) => line.trim() !== "");
      assert.ok(lines.length <= 1, `stderr:\n${lines.join("\n")}`);
      assert.doesNotMatch(lines.join("\n"), /failed|error|\bat /i);
      if (how !== "stdin EOF") await server.closeStdin().catch(() => {});
    });
  });
}

Deno.test("--keep leaves the workspace and its panes for a person to inspect", async () => {
  await withDir(async (socket, state) => {
    const server = new RawServer(socket, state, ["--keep"]);
    await server.initialize();
    const pane = await server.createPane();
    await server.closeStdin();
    await server.child.status;
    const [kept] = await workspaces(socket);
    assert.equal((await tmuxAt(socket, "display-message", "-p", "-t", pane, "#{pane_id}")).stdout.trim(), pane);
    // A later server must not reap what the user asked to keep.
    const next = new RawServer(socket, state);
    await next.initialize();
    await next.createPane().catch(() => {}); // the name is taken by the kept pane: fine
    assert.ok((await workspaces(socket)).includes(kept));
    await next.closeStdin();
    await next.child.status;
    assert.deepEqual(await workspaces(socket), [kept]);
  });
});

Deno.test("a later start removes workspaces whose server process is gone", async () => {
  await withDir(async (socket, state) => {
    const crashed = new RawServer(socket, state);
    await crashed.initialize();
    await crashed.createPane();
    const [stale] = await workspaces(socket);
    await killUnseen(crashed.child.pid); // no chance to clean up, and its tmux side does not see it die
    await crashed.child.status;
    await crashed.closeStdin().catch(() => {});
    assert.deepEqual(await workspaces(socket), [stale]);

    const next = new RawServer(socket, state);
    await next.initialize();
    await next.createPane();
    const remaining = await until(() => workspaces(socket), (names) => !names.includes(stale));
    assert.deepEqual(remaining, [`tmuxwright-${next.child.pid}`]);
    await next.closeStdin();
    await next.child.status;
  });
});
