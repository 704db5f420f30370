import assert from "node:assert/strict";
import { TestServer } from "./helpers/harness.ts";
import { whileTraced } from "./helpers/strace.ts";

/**
 * Under load tmux 3.3a can miss a child's exit: the pane is dead, its process unreaped, and a
 * no-op job is what makes tmux reap it. When that job's tmux client hung, every check of pane
 * ends on the server waited for it, and a wait whose pane had died ran to its timeout (seen once
 * in a full run). Here tmux's wait4(2) finds nothing (strace), so no child is ever reaped and the
 * no-op job never ends either: the wait must still end within a few seconds, on the pane's end.
 */
Deno.test("a wait whose pane died unreaped ends although the nudge to reap it hangs", async () => {
  await using server = await TestServer.start();
  const { pane_id } = await server.call<{ pane_id: string }>("create_pane", { command: "sleep 1; exit 3" });
  const tmuxPid = Number((await server.tmux("display-message", "-p", "#{pid}")).stdout.trim());
  // Traced for 4 s: the answer reads through a job of tmux too, which ends once tmux reaps again.
  let call: Promise<Record<string, unknown>> | undefined;
  await whileTraced(tmuxPid, ["-e", "trace=wait4", "-e", "inject=wait4:retval=0"], async () => {
    call = server.call("watch_pane", { pane_id, triggers: ["pattern:never-matches"], timeout_ms: 40_000 });
    await new Promise((resolve) => setTimeout(resolve, 4_000));
  });
  await server.tmux("run-shell", ":"); // a child's exit: tmux reaps every exited child again
  const watched = await call!;
  assert.equal(watched.trigger, "exit", JSON.stringify(watched));
  assert.equal(watched.pane_dead, true, JSON.stringify(watched));
  assert.ok((watched.elapsed_ms as number) < 5_000, JSON.stringify(watched));
});
