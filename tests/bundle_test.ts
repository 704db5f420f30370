import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

// The single-file artifact (`deno task bundle`) must serve MCP with no config, lock or cache.
Deno.test("the deno bundle build serves the same tools over stdio", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twbundle" });
  const out = `${dir}/tmuxwright.js`;
  const root = new URL("../", import.meta.url).pathname;
  const bundle = await new Deno.Command("deno", {
    args: ["bundle", "--quiet", "--platform", "deno", "-o", out, `${root}main.ts`],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(bundle.code, 0, new TextDecoder().decode(bundle.stderr));
  try {
    await using s = await TestServer.start({ entry: out });
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes("create_pane") && names.includes("capture_pane"), names.join(","));
    const pane = await s.call<{ pane_id: string }>("create_pane", { command: "echo from-bundle; exec cat" });
    await until(
      () => s.call<{ text: string }>("capture_pane", { pane_id: pane.pane_id }),
      (c) => c.text.includes("from-bundle"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
