/** Process facts from /proc (Linux). Where /proc is unreadable, callers get null and stay conservative. */

/** Field 22 of /proc/PID/stat: start time in clock ticks since boot; identifies a pid instance. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** True unless we can prove the process is gone (or its pid now belongs to another process). */
export function processAlive(pid: number, expectedStart: string | null): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    // Deno allows /proc reads only with --allow-all; the sandboxed server asks the OS by starting
    // tmux in that directory instead (a spawn fails when the process, hence the directory, is gone).
    if (error instanceof Deno.errors.NotCapable) return pidDirectoryExists(pid);
    return true; // cannot tell: never reap on doubt
  }
  if (expectedStart === null) return true;
  const start = processStartTime(pid);
  return start === null || start === expectedStart;
}

function pidDirectoryExists(pid: number): boolean {
  try {
    new Deno.Command("tmux", { args: ["-V"], cwd: `/proc/${pid}`, stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}
