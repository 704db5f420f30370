import type { PaneInfo } from "../panes/mod.ts";
import { stoppedBy, ToolError } from "../errors.ts";
import type { Prepared, Typist } from "./typist.ts";
import type { ExecOptions } from "./exec_result.ts";

/**
 * Waits for the pane's shell at its prompt, until the call's timeout: a shell still starting
 * then is TIMEOUT naming it (nothing was typed), not an error of the pane.
 */
export async function prepareWithin(
  typist: Typist,
  pane: PaneInfo,
  what: string,
  options: Pick<ExecOptions, "timeoutMs" | "startedAt" | "signal" | "fresh">,
): Promise<Prepared> {
  const until = (options.startedAt ?? performance.now()) + options.timeoutMs;
  const timeout = AbortSignal.timeout(Math.max(0, until - performance.now()));
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    return await typist.prepare(pane, `${what} in`, signal, options.fresh);
  } catch (error) {
    if (!signal.aborted) throw error;
    if (options.signal?.aborted) throw stoppedBy(options.signal, `waiting for the shell in pane ${pane.paneId}`);
    const state = options.fresh
      ? "still starting (its start-up files run)"
      : "not at its prompt yet (its start-up files or prompt hooks still run, or a program has the terminal)";
    throw new ToolError(
      "TIMEOUT",
      `Cannot ${what} within timeout_ms (${options.timeoutMs} ms): the shell in pane ${pane.paneId} was ` +
        `${state}; nothing was typed`,
      `Call again with pane_id "${pane.paneId}" (a larger timeout_ms gives it more time).`,
    );
  }
}
