import type { ShellMarks } from "../integration/mod.ts";
import type { CommandMarks } from "./hook_scanner.ts";
import type { OutputCollector } from "./collector.ts";
import type { ShellKind } from "./shell.ts";

/** A command typed into a pane's shell, followed through the pane's output stream. */
export interface Typed {
  id: string;
  kind: ShellKind;
  paneId: string;
  /** The shell's name as tmux showed it when the command was typed. */
  shellName: string;
  /** The shell's integration, when the command was typed as it is (null: the wrapper line). */
  marks: ShellMarks | null;
  /** Offsets are the pane's log offsets (false: counted from the subscription's start). */
  logged: boolean;
  scanner: CommandMarks;
  collector: OutputCollector;
  /** Stream offset of everything received so far (see PaneStream). */
  readonly received: number;
  /** Resolves when new bytes arrive. */
  changed(): Promise<void>;
  /** Stops keeping output (the markers are still followed); frees what was kept. */
  dropOutput(): void;
  /** Stops following the pane's output; safe to call more than once. */
  close(): void;
}

/** Resolves when `event` fires, after `ms`, or on abort — whichever is first. */
export function wakeOn(event: Promise<void>, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(finish, Math.max(0, ms));
    signal?.addEventListener("abort", finish, { once: true });
    event.then(finish);
    function finish() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", finish);
      resolve();
    }
  });
}
