import assert from "node:assert/strict";
import type { HttpMcpServer } from "./http_mcp.ts";
import type { Client } from "./sdk_client.ts";

/**
 * The wall's scene, as issue 39 describes it: three MCP clients named builder, tester and
 * reviewer over HTTP, four panes each; one waits on `read -p 'Continue? '`, one exited with
 * status 3, the others print their work and wait at a shell prompt. Each pane's last line of
 * output is its own, so a person (or a test) can tell every tile's latest line.
 */
export interface ScenePane {
  agent: string;
  name: string;
  pane_id: string;
  /** The pane's last line of output, once the scene is set. */
  last: string;
}

export interface Scene {
  clients: Client[];
  panes: ScenePane[];
  waiting: ScenePane;
  exited: ScenePane;
}

const PLAN: Record<string, Record<string, string[]>> = {
  builder: {
    compile: [
      "cc -O2 -c src/parser.c",
      "cc -O2 -c src/lexer.c",
      "cc -O2 -c src/eval.c",
      "ld -o build/calc",
      "build ok in 4.2s",
    ],
    server: [
      "listening on http://127.0.0.1:3000",
      "GET /health 200 1ms",
      "GET /api/items 200 14ms",
      "POST /api/items 201 9ms",
    ],
    assets: ["bundling 42 modules", "wrote dist/app.js (118 KB)", "wrote dist/app.css (12 KB)", "assets ready"],
    deploy: ["deploying calc 1.4.2 to staging", "3 services will restart: api, worker, web"],
  },
  tester: {
    unit: ["running 128 tests", "parser: 64 passed", "lexer: 40 passed", "eval: 24 passed", "128 passed in 2.1s"],
    e2e: [
      "running e2e suite (12 specs)",
      "FAIL login redirects to /home",
      "FAIL logout clears the session",
      "FAIL search pages",
      "3 tests failed",
    ],
    lint: ["checked 312 files", "no problems found"],
    coverage: ["lines 87.4%  branches 79.0%", "src/eval.c 71.2% (lowest)", "coverage report: coverage/index.html"],
  },
  reviewer: {
    diff: [
      "diff --git a/src/eval.c b/src/eval.c",
      "@@ -41,6 +41,8 @@ static int apply(op_t op)",
      "+  if (depth > MAX_DEPTH)",
      "+    return ERR_DEPTH;",
      "2 files changed, 9 insertions(+)",
    ],
    notes: [
      "review of calc 1.4.2",
      "- eval: depth limit looks right",
      "- parser: one unchecked malloc",
      "3 notes written",
    ],
    search: [
      "grep -rn malloc src/",
      "src/parser.c:88: node = malloc(sizeof *node);",
      "src/lexer.c:21: buf = malloc(len + 1);",
      "2 matches",
    ],
    summary: ["approve with one change:", "check malloc in src/parser.c:88", "summary sent"],
  },
};

const SHELL = "exec bash --norc --noprofile";

export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0].text;
  assert.ok(!result.isError, `${name}: ${text}`);
  return JSON.parse(text);
}

export async function buildScene(server: HttpMcpServer, headers: Record<string, string> = {}): Promise<Scene> {
  const clients: Client[] = [];
  const panes: ScenePane[] = [];
  const roles: { waiting?: ScenePane; exited?: ScenePane } = {};
  for (const [agent, work] of Object.entries(PLAN)) {
    const { client } = await server.client(headers, { name: agent, version: "1.0.0" });
    clients.push(client);
    for (const [name, lines] of Object.entries(work)) {
      const printed = `printf '%s\\n' ${lines.map((l) => `'${l}'`).join(" ")}`;
      // deploy asks and waits; e2e exits with status 3; the others wait at a shell prompt.
      const then = name === "deploy" ? `read -p 'Continue? ' answer; ${SHELL}` : name === "e2e" ? "exit 3" : SHELL;
      const pane = await call(client, "create_pane", { name, command: `${printed}; ${then}` });
      const entry = { agent, name, pane_id: pane.pane_id, last: name === "deploy" ? "Continue?" : lines.at(-1)! };
      if (name === "deploy") roles.waiting = entry;
      if (name === "e2e") roles.exited = entry;
      panes.push(entry);
    }
  }
  return { clients, panes, waiting: roles.waiting!, exited: roles.exited! };
}
