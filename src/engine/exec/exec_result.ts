import type { Budget } from "../output/mod.ts";
import type { BudgetedOutput } from "./budgeted.ts";
import type { Asker } from "./question.ts";

/** What execute_command asks of one command. */
export interface ExecOptions {
  timeoutMs: number;
  /**
   * When the call began (performance.now()): the timeout counts from there, so a wait for the
   * pane's turn or its shell's prompt is part of it (default: when the command is typed).
   */
  startedAt?: number;
  cwd?: string;
  signal?: AbortSignal;
  /** The pane was just created: wait for its shell's first prompt. */
  fresh?: boolean;
  /** Called about once a second while the command runs. */
  onProgress?: (elapsedMs: number) => void;
  /** The output returned (default: outputBudget()). */
  budget?: Budget;
}

/** How one command ended, and its output within the budget. */
export interface ExecResult extends BudgetedOutput {
  /** exited (exitCode set), input (it waits for the terminal), timeout, shell_exited. */
  outcome: "exited" | "input" | "timeout" | "shell_exited";
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** After a timeout: whether Ctrl-C brought the shell back to its prompt. */
  interrupted?: boolean;
  /** The shell itself ended (the command ran `exit`). */
  shellExited?: boolean;
  /** Outcome input: where the rest of the command's output begins, and the program that asks. */
  cursor?: string;
  asker?: Asker;
}
