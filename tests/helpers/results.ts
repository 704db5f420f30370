/** Wire shapes of tool results that several test files read. */

export interface ExecResult {
  pane_id: string;
  output: string;
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
  truncated: boolean;
  interrupted?: boolean;
  timeout_ms?: number;
  timeout_clamped?: boolean;
}

export interface LogTail {
  pane_id: string;
  content: string;
  returned_lines: number;
  truncated: boolean;
  log_path: string;
  next_byte: number;
  rotated?: { first_byte: number; limit_bytes: number };
}
