import type { TmuxServer } from "../../tmux/server.ts";
import type { PolicyGate } from "../policy/mod.ts";

/** A session's environment (`$N`), or the global one (null), as tmux passes it to new panes. */
export async function showEnvironment(
  tmux: TmuxServer,
  session: string | null,
  name?: string,
): Promise<Record<string, string | null>> {
  const target = session === null ? ["-g"] : ["-t", session];
  const lines = await tmux.run("show-environment", ...target, ...(name === undefined ? [] : [name])).catch(
    (error) => {
      if (name !== undefined && /unknown variable/.test(String(error))) return [];
      throw error;
    },
  );
  const variables: Record<string, string | null> = {};
  for (const line of lines) {
    if (line.startsWith("-")) variables[line.slice(1)] = null; // marked for removal from new panes
    else if (line.includes("=")) variables[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
  }
  return variables;
}

/** Sets, or with `value` null removes, a variable for panes started from now on (PROMPT_COMMAND … judged). */
export async function setEnvironment(
  tmux: TmuxServer,
  session: string | null,
  name: string,
  value: string | null,
  gate?: PolicyGate,
): Promise<void> {
  if (value !== null) await gate?.checkEnvironment({ [name]: value }, null, tmux.host);
  const target = session === null ? ["-g"] : ["-t", session];
  await tmux.run("set-environment", ...target, ...(value === null ? ["-u", name] : [name, value]));
}
