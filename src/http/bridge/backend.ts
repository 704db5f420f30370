/** The bridge v1 contract's vocabulary: validated requests, backend interface, errors. */

export const ACTIONS = [
  "list_sessions",
  "create_session",
  "send_keys",
  "capture_pane",
  "send_and_capture",
  "kill_session",
] as const;
export type Action = typeof ACTIONS[number];

/** A failure with the HTTP status and the exact message the client sees as `{ok:false, error}`. */
export class BridgeError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = "BridgeError";
  }
}

/** What to type: literal text, then key tokens, then Enter when asked. */
export interface SendInput {
  text?: string;
  keys?: string[];
  enter?: boolean;
}

export interface CaptureOptions {
  lines: number;
  joinWrapped: boolean;
}

/** A compiled `wait_for`; `test` must run in time linear in the text. */
export interface WaitPattern {
  readonly source: string;
  test(text: string): boolean;
}

export interface SendAndCaptureOptions extends CaptureOptions {
  waitFor?: WaitPattern;
  timeoutMs: number;
  /** Delay before the capture (and before the wait starts). */
  waitMs: number;
}

export interface HealthInfo {
  backend: string;
  tmuxVersion?: string;
  socketPath?: string;
  sessions: number;
}

/**
 * What a bridge needs from a terminal backend. Every method rejects with BridgeError for
 * outcomes the client must see (404 unknown session, 409 duplicate, 408 wait_for not matched,
 * 504 tmux too slow); `signal` aborts waits when the client goes away or the server stops.
 */
export interface BridgeBackend {
  readonly mode: "tmux" | "stub";
  health(): Promise<HealthInfo>;
  /** Session names, sorted. */
  list(): Promise<string[]>;
  create(name: string, cwd: string | undefined): Promise<void>;
  send(session: string, input: SendInput): Promise<void>;
  capture(session: string, options: CaptureOptions): Promise<string>;
  /** Types `input`, waits `waitMs`, then waits for `waitFor` (if any) by event; returns the capture. */
  sendAndCapture(
    session: string,
    input: SendInput,
    options: SendAndCaptureOptions,
    signal: AbortSignal,
  ): Promise<{ output: string; elapsedMs: number }>;
  kill(session: string): Promise<void>;
  close(): Promise<void>;
}

export const notFound = (session: string) => new BridgeError(404, `Session not found: ${session}`);
export const duplicate = (session: string) => new BridgeError(409, `Session already exists: ${session}`);
export const waitTimedOut = (timeoutMs: number) =>
  new BridgeError(408, `wait_for regex did not match before timeout (${timeoutMs}ms).`);
