import type { TmuxServer } from "../../tmux/server.ts";
import { escapeFormat } from "../../tmux/quote.ts";

/**
 * Evaluates a tmux format (checked by `formatArg`: no `#()` jobs, no re-expansion, no regexes)
 * against a pane, or the server's current target without one.
 */
export async function evaluateFormat(tmux: TmuxServer, format: string, paneId?: string): Promise<string> {
  const target = paneId === undefined ? [] : ["-t", paneId];
  return (await tmux.run("display-message", "-p", ...target, "--", format)).join("\n");
}

export interface Notified {
  /** Human clients (not control-mode ones, such as this server's own) that were shown the message. */
  clients: { client: string; session: string }[];
}

/**
 * Shows `text` in the status line of every attached client a person uses, for `durationMs`.
 * The text is not a format: every `#` is escaped so nothing in it is expanded or run.
 */
export async function notifyClients(tmux: TmuxServer, text: string, durationMs: number): Promise<Notified> {
  const rows = await tmux.run("list-clients", "-F", "#{client_name}\x1f#{client_control_mode}\x1f#{session_name}");
  const clients = rows.map((row) => row.split("\x1f")).filter(([name, control]) => name && control !== "1")
    .map(([client, , session]) => ({ client, session }));
  if (clients.length > 0) {
    await tmux.batch(
      clients.map(({ client }) => [
        "display-message",
        "-c",
        client,
        "-d",
        String(durationMs),
        "--",
        escapeFormat(text),
      ]),
    );
  }
  return { clients };
}
