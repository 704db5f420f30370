import type { TmuxServer } from "../../tmux/server.ts";
import { OutputCollector } from "./collector.ts";
import { NestedScanner } from "./hook_scanner.ts";
import { commandFile, inlineLine, MarkerScanner, wrapperLine } from "./markers.ts";
import type { Typed } from "./typed.ts";
import { follow, type Prepared } from "./follow.ts";
import type { CommandFiles } from "./command_files.ts";

/** How a command is typed with the wrapper line (markers.ts): its text, and where the call asked it to run. */
export interface WrappedCommand {
  /** The marker id (`newMarkerId`). */
  id: string;
  command: string;
  cwd?: string;
  keepBytes?: number;
}

/**
 * Types the wrapper line for a shell that prints no marks of its own: it sources the command's
 * file between a start and an end marker. Locally the file is written here (and removed when the
 * command is done); on a host it is written there by its tmux server (`save-buffer`, no process
 * started), one file per pane, rewritten for each command. Into a remote shell behind the pane's
 * `ssh`, the command goes in the typed line itself (no file there to read).
 */
export async function typeWrapped(
  tmux: TmuxServer,
  files: CommandFiles,
  prepared: Prepared,
  typing: WrappedCommand,
): Promise<Typed> {
  const { pane, shell } = prepared;
  const { id, command, cwd } = typing;
  if (shell.ssh) return await sendLine(tmux, prepared, typing, [keys(prepared, inlineLine(id, command, cwd))]);
  if (tmux.remote) {
    const file = await files.remote(pane.paneId);
    const buffer = `tmuxwright-cmd-${id}`;
    return await sendLine(tmux, prepared, typing, [
      ["set-buffer", "-b", buffer, "--", commandFile(shell.kind, command, cwd)],
      ["save-buffer", "-b", buffer, file],
      ["delete-buffer", "-b", buffer],
      keys(prepared, wrapperLine(shell.kind, id, file)),
    ]).catch((error) => {
      files.forgetRemoteDir(); // the host's tmux may have restarted elsewhere
      throw error;
    });
  }
  const file = await files.local(id);
  await Deno.writeTextFile(file, commandFile(shell.kind, command, cwd), { mode: 0o600 });
  const removeFile = () => void Deno.remove(file).catch(() => {});
  return await sendLine(tmux, prepared, typing, [keys(prepared, wrapperLine(shell.kind, id, file))], removeFile);
}

/** The line typed literally into the pane. */
function keys(prepared: Prepared, line: string): string[] {
  return ["send-keys", "-t", prepared.pane.paneId, "-l", "--", line];
}

/**
 * Follows the command's markers (inside a shell started in an integrated one, that shell's end
 * mark too), then sends `commands` and Enter in one batch; a failed send stops the following.
 */
async function sendLine(
  tmux: TmuxServer,
  prepared: Prepared,
  typing: WrappedCommand,
  commands: string[][],
  onClose: () => void = () => {},
): Promise<Typed> {
  const markers = new MarkerScanner(typing.id);
  const scanner = prepared.outer ? new NestedScanner(markers, prepared.outer.nonce, prepared.outer.seq) : markers;
  const typed = follow(prepared, typing.id, scanner, new OutputCollector(typing.keepBytes), onClose);
  try {
    await tmux.batch([...commands, ["send-keys", "-t", prepared.pane.paneId, "Enter"]]);
  } catch (error) {
    typed.close();
    throw error;
  }
  return typed;
}
