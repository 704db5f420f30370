/** Every mode's promise on exit: clean up, bounded in time, then exit 0 (also if clean-up hangs or fails). */
export const SHUTDOWN_BUDGET_MS = 800;

/**
 * Returns `stop(why)`: the first call logs why, runs `cleanup` within SHUTDOWN_BUDGET_MS and exits 0;
 * later calls do nothing. SIGINT and SIGTERM call it.
 */
export function onStop(cleanup: () => Promise<unknown>): (why: string) => Promise<void> {
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`[tmuxwright] stopping: ${why}`);
    const timer = setTimeout(() => Deno.exit(0), SHUTDOWN_BUDGET_MS);
    try {
      await cleanup();
    } catch (error) {
      console.error(`[tmuxwright] cleanup failed: ${(error as Error).message}`);
    }
    clearTimeout(timer);
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, () => void stop(signal));
  return stop;
}
