import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneOutput } from "../output/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { MarkerScanner, statusProbeLine } from "./markers.ts";
import type { ShellKind } from "./shell.ts";
import { wakeOn } from "./typed.ts";

/**
 * Types a status probe with marker `id` at the prompt (the shell keeps `$?` of the last command);
 * null if none comes within `timeoutMs`.
 */
export async function probeStatus(
  tmux: TmuxServer,
  output: PaneOutput,
  id: string,
  pane: PaneInfo,
  kind: ShellKind,
  timeoutMs: number,
): Promise<number | null> {
  const scanner = new MarkerScanner(id, false);
  let received = 0;
  let wake = () => {};
  const subscription = await output.subscribe(pane, (bytes) => {
    if (scanner.push(bytes, received)) wake();
    received += bytes.length;
  });
  try {
    const seen = new Promise<void>((resolve) => wake = resolve);
    await tmux.batch([
      ["send-keys", "-t", pane.paneId, "-l", "--", statusProbeLine(kind, id)],
      ["send-keys", "-t", pane.paneId, "Enter"],
    ]);
    await wakeOn(seen, timeoutMs);
    return scanner.end?.status ?? null;
  } finally {
    subscription.close();
  }
}
