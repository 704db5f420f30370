import assert from "node:assert/strict";
import { BUDGETS, measureProfile } from "../scripts/bench_tokens.ts";

Deno.test("tools/list stays within the token budgets (core ≤ 1,500, agent ≤ 5,000, all ≤ 8,000)", async () => {
  for (const profile of ["core", "agent", "all"] as const) {
    const budget = BUDGETS[profile];
    const cost = await measureProfile(profile);
    assert.ok(cost.tools >= 5, `${profile} lists ${cost.tools} tools`);
    assert.ok(cost.total <= budget, `${profile}: ${cost.total} tokens > ${budget}`);
  }
  const core = await measureProfile("core");
  assert.deepEqual(core.perTool.map((t) => t.name).sort(), [
    "capture_pane",
    "create_pane",
    "kill_pane",
    "list_panes",
    "send_keys",
  ]);
});
