import type { TmuxServer } from "../../tmux/server.ts";
import { TmuxError } from "../../tmux/errors.ts";
import { ToolError } from "../errors.ts";

export const SCOPES = ["server", "session", "window", "pane"] as const;
export type Scope = typeof SCOPES[number];

/** Whose option: a session, window or pane by tmux id; null for the global (or server) value. */
export type OptionTarget = { kind: "session" | "window" | "pane"; id: string } | null;

/**
 * tmux flags for a scope and target. Without a scope tmux picks the table from the option's name
 * (user `@options` default to the session table, or the target's kind).
 */
function flags(scope: Scope | undefined, target: OptionTarget): string[] {
  const table = scope ?? (target?.kind === "window" ? "window" : target?.kind === "pane" ? "pane" : undefined);
  const scopeFlag = table === "server" ? ["-s"] : table === "window" ? ["-w"] : table === "pane" ? ["-p"] : [];
  if (table === "server") return scopeFlag;
  return target === null
    ? [...scopeFlag, "-g"]
    : [...scopeFlag, "-t", target.kind === "session" ? `${target.id}:` : target.id];
}

export interface OptionValue {
  name: string;
  /** One value, or one per index for array options (status-format, command-alias ...). */
  value: string | string[];
  /** With a target: the value comes from a parent (global or the session), not set on the target itself. */
  inherited?: boolean;
}

/** One option's value (effective, with inheritance marked), or every option of the scope as tmux prints them. */
export async function showOption(
  tmux: TmuxServer,
  scope: Scope | undefined,
  target: OptionTarget,
  name?: string,
): Promise<OptionValue | { options: string[] }> {
  const base = ["show-options", ...flags(scope, target)];
  if (name === undefined) return { options: await tmux.run(...base, ...(target ? ["-A"] : [])) };
  try {
    const [effective, local] = await tmux.batch([
      [...base, ...(target ? ["-A"] : []), "-v", name],
      [...base, "-v", name],
    ]);
    // An unset user option: tmux refuses it, or (some releases) lists nothing.
    if (effective.length === 0 && name.startsWith("@")) {
      throw new TmuxError("command_failed", `invalid option: ${name}`);
    }
    const value = effective.length === 1 && !/\[\d+\]$/.test(name) ? effective[0] : effective;
    return { name, value, ...(target ? { inherited: local.length === 0 } : {}) };
  } catch (error) {
    throw optionError(error, name);
  }
}

/** Sets (or with `value` null unsets) one option. */
export async function setOption(
  tmux: TmuxServer,
  scope: Scope | undefined,
  target: OptionTarget,
  name: string,
  value: string | null,
): Promise<void> {
  const args = value === null ? ["-u", name] : [name, value];
  try {
    await tmux.run("set-option", ...flags(scope, target), ...args);
  } catch (error) {
    throw optionError(error, name);
  }
}

function optionError(error: unknown, name: string): unknown {
  if (!(error instanceof TmuxError) || !/invalid option|unknown option|ambiguous option/.test(error.message)) {
    return error;
  }
  return new ToolError(
    "NOT_FOUND",
    name.startsWith("@")
      ? `Option ${JSON.stringify(name)} is not set here`
      : `Option ${JSON.stringify(name)} is not a tmux option of this scope: ${error.message}`,
    "Call show_option without a name to list the options of a scope.",
  );
}
