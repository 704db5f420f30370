import { stoppedBy } from "../errors.ts";

/**
 * A step of making a pane that its call's deadline may overtake (the turn behind the panes asked
 * for before it, the workspace being made): it ends with TIMEOUT naming the step when the call's
 * signal fires first. The step itself goes on (a workspace being made is finished for the next
 * call); what it would have done for this call is dropped by the caller, which checks the signal.
 */
export function withinDeadline<T>(step: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (!signal) return step;
  if (signal.aborted) return Promise.reject(stoppedBy(signal, what));
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(stoppedBy(signal, what));
    signal.addEventListener("abort", stop, { once: true });
    step.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}
