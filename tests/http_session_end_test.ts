import assert from "node:assert/strict";
import { HttpMcpServer } from "./helpers/http_mcp.ts";

// Found by the stress with heavy shells: a session ended (DELETE) after tmux had lost its workspace
// (tmux killed and started again) failed to kill the session that was gone, and the rejection ended
// the whole HTTP server, with every other session's calls.

Deno.test("HTTP: ending a session whose workspace tmux already lost leaves the server serving the others", async () => {
  await using server = await HttpMcpServer.start();
  const { client, transport } = await server.client();
  await client.callTool({ name: "create_pane", arguments: { name: "lost", command: "sleep 300" } });
  await server.tmux("kill-server");
  await transport.terminateSession();
  await client.close();
  // Another session, on a tmux server started again: served.
  const other = await server.client();
  const result = await other.client.callTool({ name: "execute_command", arguments: { command: "echo still here" } });
  assert.equal((result.structuredContent as { output?: string }).output, "still here", JSON.stringify(result));
  await other.transport.terminateSession();
  await other.client.close();
});
