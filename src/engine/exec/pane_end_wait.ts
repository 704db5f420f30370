import type { PaneEnd, PaneEnds } from "../watch/mod.ts";
import type { PaneInfo } from "../panes/mod.ts";
import { type Typed, wakeOn } from "./typed.ts";

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

/** After the pane ended: the bytes it wrote before have been read (none for 30 ms, at most 300 ms). */
export async function drained(typed: Typed): Promise<void> {
  const deadline = performance.now() + 300;
  while (performance.now() < deadline) {
    const before = typed.received;
    await wakeOn(NEVER, 30);
    if (typed.received === before) return;
  }
}
