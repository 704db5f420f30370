import assert from "node:assert/strict";
import type { HttpMcpServer } from "./http_mcp.ts";
import type { Client } from "./sdk_client.ts";

/**
 * The wall's scene, as issue 39 describes it: three MCP clients named builder, tester and
 * reviewer over HTTP, four panes each; one waits on `read -p 'Continue? '`, one exited with
 * status 3. Every pane's last line says whose it is (`LAST <agent>-<pane>`), so a person (or a
 * test) can tell each tile's latest line.
 */
export interface ScenePane {
  agent: string;
  name: string;
  pane_id: string;
  /** Text of the pane's latest line, once the scene is set. */
  last: string;
}

export interface Scene {
  clients: Client[];
  panes: ScenePane[];
  waiting: ScenePane;
  exited: ScenePane;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0].text;
  assert.ok(!result.isError, `${name}: ${text}`);
  return JSON.parse(text);
}

export async function buildScene(server: HttpMcpServer, headers: Record<string, string> = {}): Promise<Scene> {
  const clients: Client[] = [];
  const panes: ScenePane[] = [];
  let waiting: ScenePane | null = null;
  let exited: ScenePane | null = null;
  const plan: Record<string, string[]> = {
    builder: ["compile", "server", "assets", "deploy"],
    tester: ["unit", "e2e", "lint", "coverage"],
    reviewer: ["diff", "notes", "search", "summary"],
  };
  for (const [agent, names] of Object.entries(plan)) {
    const { client } = await server.client(headers, { name: agent, version: "1.0.0" });
    clients.push(client);
    for (const name of names) {
      const marker = `LAST ${agent}-${name}`;
      if (agent === "tester" && name === "e2e") {
        // Exits with status 3 after its last line.
        const pane = await call(client, "create_pane", {
          name,
          command: `printf 'running e2e suite\\n3 tests failed\\n${marker}\\n'; exit 3`,
        });
        exited = { agent, name, pane_id: pane.pane_id, last: marker };
        panes.push(exited);
        continue;
      }
      const pane = await call(client, "create_pane", { name }); // the user's shell (bash in tests)
      await call(client, "execute_command", {
        pane_id: pane.pane_id,
        command: `PS1='$ '; for i in 1 2 3 4 5 6; do echo "${agent} ${name} step $i of 6: ok"; done; echo '${marker}'`,
      });
      const entry = { agent, name, pane_id: pane.pane_id, last: marker };
      if (agent === "builder" && name === "deploy") {
        // Asks a question and waits for the answer.
        await call(client, "send_keys", { pane_id: pane.pane_id, text: "read -p 'Continue? ' answer" });
        entry.last = "Continue?";
        waiting = entry;
      }
      panes.push(entry);
    }
  }
  return { clients, panes, waiting: waiting!, exited: exited! };
}
