/** A control client's two byte streams, however it runs: a child's stdio (tmux, ssh) or a relay's fifos. */
export interface ControlIo {
  writable: WritableStream<Uint8Array>;
  readable: ReadableStream<Uint8Array>;
  /** Ends it at once (a stuck connection, a failed start). */
  kill(): void;
  /** Settles once it has ended. */
  ended: Promise<unknown>;
}

/** A child process's stdio as a control client's streams. */
export function childIo(child: Deno.ChildProcess): ControlIo {
  return {
    writable: child.stdin,
    readable: child.stdout,
    kill: () => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    },
    ended: child.status.catch(() => {}),
  };
}
