import type { TmuxServer } from "../../tmux/server.ts";
import { ToolError } from "../errors.ts";
import { PANE_TEMPLATE, type PaneInfo, parsePanes } from "./panes.ts";

/** The pane named `name` among those `instance` created (names are per workspace owner), dead or alive. */
export async function ownedPaneNamed(tmux: TmuxServer, instance: string, name: string): Promise<PaneInfo | undefined> {
  const panes = parsePanes(await tmux.run("list-panes", "-a", "-F", PANE_TEMPLATE));
  return panes.find((p) => p.name === name && p.instance === instance);
}

/** NAME_IN_USE when one of the owner's panes already holds `name`. */
export async function assertNameFree(tmux: TmuxServer, instance: string, name: string): Promise<void> {
  const holder = await ownedPaneNamed(tmux, instance, name);
  if (holder) {
    throw new ToolError(
      "NAME_IN_USE",
      `Cannot create pane "${name}": the name is already used by pane ${holder.paneId}`,
      "Choose another name, or kill_pane the old one first.",
    );
  }
}
