import { type TestServer, until } from "./harness.ts";

/** An owned bash pane, at its prompt (decided by pane_state from /proc, not by screen text). */
export async function shellPane(server: TestServer, name = "sh"): Promise<string> {
  const created = await server.call<{ pane_id: string }>("create_pane", { name });
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: created.pane_id }),
    (s) => s.at_shell_prompt,
  );
  return created.pane_id;
}
