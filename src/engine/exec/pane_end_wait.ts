import type { PaneEnd, PaneEnds } from "../watch/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { type Typed, wakeOn } from "./typed.ts";
import { logSize } from "../output/mod.ts";

/** A command's wait on its pane's end (PaneEnds): `seen` resolves when it comes; `stop` when the wait is over. */
export interface EndWatch {
  readonly end: PaneEnd | null;
  readonly seen: Promise<void>;
  stop(): void;
}

const NEVER = new Promise<void>(() => {});

export function watchEnd(ends: PaneEnds | undefined, pane: PaneInfo): EndWatch {
  if (!ends) return { end: null, seen: NEVER, stop: () => {} };
  const seen = Promise.withResolvers<void>();
  let end: PaneEnd | null = null;
  const stop = ends.watch(pane, (found) => {
    end = found;
    seen.resolve();
  });
  return {
    get end() {
      return end;
    },
    seen: seen.promise,
    stop,
  };
}

/**
 * After the pane ended: the bytes it wrote before have been read — up to its log's end for a logged
 * pane (the log has them all), then no new bytes for 30 ms; at most 500 ms in all.
 */
export async function drained(typed: Typed, pane: PaneInfo): Promise<void> {
  const deadline = performance.now() + 500;
  while (typed.logged && pane.logPath && performance.now() < deadline) {
    if (typed.received >= await logSize(pane.logPath).catch(() => 0)) break;
    await wakeOn(typed.changed(), 20);
  }
  while (performance.now() < deadline) {
    const before = typed.received;
    await wakeOn(NEVER, 30);
    if (typed.received === before) return;
  }
}
