/** Failures of tmux itself, classified so callers can tell "gone" from "broken". */
export type TmuxErrorKind = "target_gone" | "server_gone" | "tmux_missing" | "command_failed" | "disconnected";

export class TmuxError extends Error {
  constructor(readonly kind: TmuxErrorKind, message: string, readonly command?: string) {
    super(message);
    this.name = "TmuxError";
  }
}

const TARGET_GONE = /^(can't find (pane|window|session|client)|no such (pane|window|session)|pane .* not found)/i;
const SERVER_GONE = /(no server running|error connecting to|server exited|lost server)/i;

/** Turns tmux's error text into a typed error. */
export function classifyTmuxError(text: string, command?: string): TmuxError {
  const message = text.trim() || "tmux reported an error without a message";
  if (TARGET_GONE.test(message)) return new TmuxError("target_gone", message, command);
  if (SERVER_GONE.test(message)) return new TmuxError("server_gone", message, command);
  return new TmuxError("command_failed", message, command);
}
