import type { Mark, ShellMarks } from "../integration/mod.ts";
import type { OutputCollector } from "./collector.ts";
import { type CommandMarks, HookScanner } from "./hook_scanner.ts";
import type { PaneStream } from "./stream.ts";
import type { Typed } from "./typed.ts";
import type { PaneInfo } from "../panes/mod.ts";
import type { ShellKind } from "./shell.ts";

/** A pane ready to be typed into: its output followed, and how to type there. */
export interface Prepared {
  pane: PaneInfo;
  stream: PaneStream;
  /** The shell's integration, when its shell waits at its prompt and prints marks. */
  marks: ShellMarks | null;
  /** `ssh`: a remote shell behind the pane's ssh, typed into with the command inline (markers.ts). */
  shell: { kind: ShellKind; name: string; ssh?: true };
  /** Typing into a shell started inside an integrated one: the outer shell's nonce and running command. */
  outer?: { nonce: string; seq: number | null };
}

/** A Typed over the prepared stream: the scanner and the collector see every byte from here on. */
export function follow(
  prepared: Prepared,
  id: string,
  scanner: CommandMarks,
  collector: OutputCollector,
  onClose: () => void,
  park?: (stream: PaneStream, marks: ShellMarks, last: Mark | null) => void,
): Typed & { onClose(fn: () => void): void } {
  const { stream, pane, shell, marks } = prepared;
  let keepOutput = true;
  let closed = false;
  const closers = [onClose];
  const unlisten = stream.listen((bytes, offset) => {
    if (keepOutput && (scanner.startEnd === null || scanner.end === null)) collector.push(bytes, offset);
    if (scanner.push(bytes, offset) && scanner.startEnd !== null) collector.discardBefore(scanner.startEnd);
  });
  return {
    id,
    kind: shell.kind,
    paneId: pane.paneId,
    shellName: shell.name,
    marks,
    logged: stream.logged,
    scanner,
    collector,
    get received() {
      return stream.received;
    },
    changed: () => stream.changed(),
    dropOutput: () => {
      keepOutput = false;
      collector.discardBefore(Number.MAX_SAFE_INTEGER);
    },
    onClose: (fn) => closers.push(fn),
    close: () => {
      if (closed) return;
      closed = true;
      unlisten();
      // An integrated shell's command that ended: its stream waits for the next command (parked.ts).
      if (park && marks && scanner.end && scanner instanceof HookScanner) park(stream, marks, scanner.lastMark);
      else stream.close();
      for (const fn of closers) fn();
    },
  };
}
