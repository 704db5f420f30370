import { type TestServer, until } from "./harness.ts";

/** Interactive bash without the machine's rc files (they can take seconds, e.g. pyenv rehash locks). */
export const PLAIN_BASH = "bash --norc --noprofile";

/** An owned bash pane, at its prompt (decided by pane_state from /proc, not by screen text). */
export async function shellPane(server: TestServer, name = "sh"): Promise<string> {
  const created = await server.call<{ pane_id: string }>("create_pane", { name, command: PLAIN_BASH });
  await until(
    () => server.call<{ at_shell_prompt: boolean }>("pane_state", { pane_id: created.pane_id }),
    (s) => s.at_shell_prompt,
  );
  return created.pane_id;
}
