import type { PaneInfo } from "../engine/panes/mod.ts";
import { type Asker, describeAsker } from "../engine/exec/mod.ts";
import { paneProcess, type ProcState } from "../engine/facts/mod.ts";
import type { ToolContext } from "./context.ts";

/** `pane_state` of a result that ends with `outcome: "input"`: the program that asks. */
export function askerResult(asker: Asker) {
  return { command: asker.command, kind: asker.kind, waiting_for_input: asker.waitingForInput };
}

/** `outcome: "input"` and the asking program, from `state` or a fresh look at the pane. */
export async function inputFields(ctx: ToolContext, pane: PaneInfo, state?: ProcState | null) {
  const proc = state ?? (await paneProcess(ctx.app.proc, pane)).proc;
  return { outcome: "input" as const, pane_state: askerResult(await describeAsker(ctx.tmux, pane.paneId, proc)) };
}
