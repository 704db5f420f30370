import { TmuxError } from "../tmux/errors.ts";
import { HostError } from "../tmux/ssh.ts";

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
  | "PANE_GONE"
  | "PANE_NOT_STARTED"
  | "UNSUPPORTED_SHELL"
  | "TMUX_UNAVAILABLE"
  | "TMUX_ERROR"
  | "HOST_NOT_CONFIGURED"
  | "HOST_UNREACHABLE"
  | "HOST_KEY_UNKNOWN"
  | "HOST_KEY_CHANGED"
  | "CANCELLED"
  | "TIMEOUT"
  | "POLICY_DENIED"
  | "POLICY_DECLINED"
  | "POLICY_ASK_UNAVAILABLE"
  | "WORKSPACE_EXPIRED"
  | "INTERNAL";

/** What each code means, for the tool reference (docs/TOOLS.md). */
export const ERROR_CODES: Record<ErrorCode, string> = {
  PANE_NOT_FOUND: "no pane has that id or name (list_panes shows them)",
  NOT_FOUND: "no session, window, buffer, option or server has that id or name (the matching list tool shows them)",
  AMBIGUOUS_TARGET: "several panes carry that name; pass the pane id",
  TIER_DENIED: "the server's safety tier (--safety) does not allow this tool or this target",
  PROTECTED_TARGET: "the pane, window, session or server tmuxwright itself runs in, or the workspace hub",
  INVALID_ARGUMENT: "an argument fails the schema or a check (a pattern the engine cannot compile, a missing cwd …)",
  NAME_IN_USE: "another pane already has that name",
  PANE_BUSY: "the pane runs a program, not a shell waiting at its prompt",
  PANE_DEAD: "the pane's process has exited",
  PANE_GONE: "the pane was removed while a call waited on it (the message names by whom, where known)",
  PANE_NOT_STARTED: "the pane's program never started (its start-up gate was not released); the pane was removed",
  UNSUPPORTED_SHELL: "the pane's shell is one execute_command cannot drive (nu, xonsh, elvish, pwsh); use send_keys",
  TMUX_UNAVAILABLE: "tmux is not installed or its server cannot be reached",
  TMUX_ERROR: "tmux refused the command",
  HOST_NOT_CONFIGURED:
    "the host is not one the server was started with (--host NAME=DESTINATION); local is this machine",
  HOST_UNREACHABLE:
    "the link to the host (ssh, or a container runtime's exec) failed or dropped; the next call reconnects (with backoff)",
  HOST_KEY_UNKNOWN: "ssh does not know the host's key; the user must accept it once (the message says how)",
  HOST_KEY_CHANGED:
    "the host's key differs from the known one; ssh refused to connect (the message says what to check)",
  CANCELLED: "the client cancelled the request",
  TIMEOUT: "a step did not end by the call's deadline (timeout_ms + 1 s, or the tool's bound); the message names it",
  POLICY_DENIED:
    "a deny rule of the command policy (--policy), or its default, refuses the command; the message names the rule",
  POLICY_DECLINED: "the command policy asked the person, who refused (or cancelled) the command",
  POLICY_ASK_UNAVAILABLE:
    "the command policy asks a person first, and this client cannot be asked (no MCP elicitation)",
  WORKSPACE_EXPIRED:
    "MCP 2026 over HTTP: the workspace handle names a workspace that ended (idle too long, or the server restarted)",
  INTERNAL: "a bug in tmuxwright (the server's stderr has the details)",
};

/** An error the agent can act on: what failed, the state, and the next tool to call. */
export class ToolError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly hint?: string) {
    super(message);
    this.name = "ToolError";
  }
}

/**
 * The reason a call's signal aborts when its deadline comes (src/mcp/deadlines.ts), as opposed to
 * the client cancelling it: each wait that ends on it says which step was slow (`stoppedBy`).
 */
export class DeadlineReached extends Error {
  constructor(readonly answerByMs: number) {
    super(`the call's deadline (${answerByMs} ms) came`);
    this.name = "DeadlineReached";
  }
}

/** Whether the signal fired because the call's deadline came (not a cancellation by the client). */
export function deadlineCame(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason instanceof DeadlineReached;
}

/**
 * The error of a wait that its call's signal ended: TIMEOUT naming `step` (what was slow, e.g.
 * "waiting for the shell in pane %3 to start") when the deadline came, else CANCELLED.
 */
export function stoppedBy(signal: AbortSignal | undefined, step: string, hint?: string): ToolError {
  if (deadlineCame(signal)) {
    const { answerByMs } = signal!.reason as DeadlineReached;
    return new ToolError("TIMEOUT", `Cannot finish the call within its deadline (${answerByMs} ms): ${step}`, hint);
  }
  return new ToolError("CANCELLED", `The call was cancelled while ${step}`);
}

/** Maps anything thrown by a handler to a ToolError; unexpected errors keep their stack for stderr. */
export function toToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (error instanceof DeadlineReached) {
    return new ToolError("TIMEOUT", `Cannot finish the call: ${error.message} while it waited`);
  }
  if (error instanceof HostError) return hostToolError(error);
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

/** A remote host's failure: its own code, or TMUX_UNAVAILABLE when the host's tmux is missing or too old. */
function hostToolError(error: HostError): ToolError {
  const code = ({
    host_unreachable: "HOST_UNREACHABLE",
    host_key_unknown: "HOST_KEY_UNKNOWN",
    host_key_changed: "HOST_KEY_CHANGED",
    host_tmux_unusable: "TMUX_UNAVAILABLE",
  } as const)[error.failure];
  return new ToolError(code, error.message, error.hint);
}
