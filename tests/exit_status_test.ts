import assert from "node:assert/strict";
import { TestServer, until } from "./helpers/harness.ts";

type Listing = { panes: { name: string | null; status: string; exit_code?: number }[] };

// Under load tmux 3.3 can leave a just-exited pane's process unreaped (no status) until another
// child of the server exits; list_panes must still report every exit code.
Deno.test("many panes exiting at once all report their exit codes", async () => {
  await using s = await TestServer.start();
  const names = Array.from({ length: 8 }, (_, i) => `quick-${i}`);
  await Promise.all(names.map((name, i) => s.call("create_pane", { name, command: `echo bye-${i}; exit ${i + 1}` })));
  const listing = await until(
    () => s.call<Listing>("list_panes", { owned_only: true }),
    (l) => l.panes.filter((p) => p.status === "exited").length === names.length,
  );
  for (const [i, name] of names.entries()) {
    assert.equal(listing.panes.find((p) => p.name === name)?.exit_code, i + 1, name);
  }
});
