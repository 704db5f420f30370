import { TmuxError } from "../tmux/errors.ts";

/** The closed set of error codes an agent can see. */
export type ErrorCode =
  | "PANE_NOT_FOUND"
  | "NOT_FOUND"
  | "AMBIGUOUS_TARGET"
  | "TIER_DENIED"
  | "PROTECTED_TARGET"
  | "INVALID_ARGUMENT"
  | "NAME_IN_USE"
  | "PANE_BUSY"
  | "PANE_DEAD"
  | "TMUX_UNAVAILABLE"
  | "TMUX_ERROR"
  | "CANCELLED"
  | "INTERNAL";

/** An error the agent can act on: what failed, the state, and the next tool to call. */
export class ToolError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly hint?: string) {
    super(message);
    this.name = "ToolError";
  }
}

/** Maps anything thrown by a handler to a ToolError; unexpected errors keep their stack for stderr. */
export function toToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (error instanceof TmuxError) {
    switch (error.kind) {
      case "target_gone":
        return new ToolError(
          "PANE_NOT_FOUND",
          `tmux target does not exist: ${error.message}`,
          "Use list_panes to see active panes.",
        );
      case "tmux_missing":
        return new ToolError("TMUX_UNAVAILABLE", error.message, "Install tmux, then run tmuxwright doctor.");
      case "server_gone":
      case "disconnected":
        return new ToolError(
          "TMUX_UNAVAILABLE",
          `tmux server is not reachable: ${error.message}`,
          "Retry the call; the connection is reopened on the next call.",
        );
      default:
        return new ToolError("TMUX_ERROR", `tmux refused the command: ${error.message}`);
    }
  }
  if (error instanceof RangeError) return new ToolError("INVALID_ARGUMENT", error.message);
  return new ToolError("INTERNAL", `internal error: ${(error as Error)?.message ?? String(error)}`);
}
