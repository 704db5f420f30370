/**
 * Long commands as Tasks (MCP 2026-07-28, `io.modelcontextprotocol/tasks`): a client that declares
 * the extension gets an `execute_command` or `start_process` that runs past TMUXWRIGHT_TASK_AFTER_MS
 * as a task it polls; the task ends with the tool's own result (output and exit code); cancelling
 * it sends Ctrl-C. A quick call, or a client without the extension, is answered as before.
 */
import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";
import { until } from "./helpers/harness.ts";
import { ModernClient } from "./helpers/modern_client.ts";
import { tasksSession } from "./helpers/tasks_session.ts";

const TASK_AFTER = { TMUXWRIGHT_TASK_AFTER_MS: "500" };

function fields(result: unknown): Record<string, unknown> {
  const r = result as { structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] };
  return r.structuredContent ?? JSON.parse(r.content[0].text!);
}

async function tasksTour(c: ModernClient, name: string, other?: ModernClient) {
  const session = tasksSession(c.client, name);
  try {
    // Quick: answered at once, no task.
    const quick = await session.callTool("execute_command", { command: "echo quick" });
    assert.equal(quick.kind, "immediate");
    const quickDone = await quick.settle();
    assert.equal(quickDone.outcome.status, "completed");

    // Long: a task, polled to the command's own result.
    const long = await session.callTool("execute_command", { command: "sleep 1.5; printf 'slow\\n'; false" });
    assert.equal(long.kind, "task");
    const settled = await long.settle();
    assert.equal(settled.outcome.status, "completed", JSON.stringify(settled.outcome));
    const result = fields((settled.outcome as { result: unknown }).result);
    assert.deepEqual([result.output, result.exit_code, result.outcome], ["slow", 1, "exited"]);

    // Cancelled: Ctrl-C reaches the command; the pane's shell is back at once.
    const pane = (await c.call("create_pane", { name: "cancelled" })).pane_id as string;
    const doomed = await session.callTool("execute_command", { pane_id: pane, command: "sleep 600; echo never" });
    assert.equal(doomed.kind, "task");
    if (other && doomed.kind === "task") {
      // Another caller on the same endpoint: the task is not there for it, and it cannot cancel it.
      const taskId = doomed.handle.taskId;
      for (const method of ["tasks/get", "tasks/cancel"]) {
        const answer = await rawRequest(other, method, { taskId });
        assert.match(JSON.stringify(answer), /No task .* of yours/, method);
      }
    }
    await doomed.cancel();
    const ended = await doomed.settle().then((s) => s.outcome.status, (error) => String(error));
    assert.ok(/cancel/i.test(ended), ended);
    const after = await until(
      () => c.result("execute_command", { pane_id: pane, command: "echo shell-back", timeout_ms: 3000 }),
      (r) => !r.isError,
      15_000,
    );
    assert.equal(fields(after).output, "shell-back");
    const screen = await c.call("capture_pane", { pane_id: pane, lines: 20 });
    assert.match(String(screen.text), /\^C/);
    assert.doesNotMatch(String(screen.text), /^never$/m);

    // start_process waiting for its ready line, as a task.
    const server = await session.callTool("start_process", {
      name: "server",
      command: "sleep 1.2; echo 'listening on 8080'; sleep 600",
      ready: "listening on \\d+",
      timeout_ms: 20_000,
    });
    assert.equal(server.kind, "task");
    const ready = fields(((await server.settle()).outcome as { result: unknown }).result);
    assert.equal(ready.outcome, "ready");
  } finally {
    await session.close();
  }
}

Deno.test("MCP 2026 Tasks over stdio: long execute_command and start_process become tasks; cancel sends Ctrl-C", async () => {
  await using c = await ModernClient.stdio({ mode: "pin", env: TASK_AFTER });
  await tasksTour(c, "tasks-stdio");
});

Deno.test("MCP 2026 Tasks over HTTP: the same, and another caller cannot see the task", async () => {
  await using server = await HttpMcpServer.start({ env: TASK_AFTER });
  await using c = await ModernClient.http(server.mcpUrl, {
    mode: "pin",
    info: { name: "tasks-http", version: "1.0.0" },
  });
  await using other = await ModernClient.http(server.mcpUrl, {
    mode: "pin",
    info: { name: "other", version: "1.0.0" },
  });
  await tasksTour(c, "tasks-http", other);
});

/** One request sent raw on a client's transport (the SDK refuses task methods on its own request path). */
function rawRequest(c: ModernClient, method: string, params: Record<string, unknown>): Promise<unknown> {
  const transport = c.client.transport!;
  const id = `raw-${crypto.randomUUID()}`;
  const deliver = transport.onmessage!;
  return new Promise((resolve) => {
    transport.onmessage = ((message: { id?: unknown }, extra?: unknown) => {
      if (message.id !== id) return (deliver as (m: unknown, e?: unknown) => void)(message, extra);
      transport.onmessage = deliver;
      resolve(message);
    }) as typeof transport.onmessage;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "other", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
    };
    void transport.send({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } } as never);
  });
}

Deno.test("MCP 2026 without the Tasks extension: a long call is answered when it ends, as before", async () => {
  await using c = await ModernClient.stdio({ mode: "pin", env: TASK_AFTER });
  const slow = await c.call("execute_command", { command: "sleep 1.2; echo late" });
  assert.equal(slow.output, "late");
});
