/**
 * The server runs under the Deno permissions of `deno task start` (see docs/SECURITY.md): tmux
 * is the only program it may spawn, and it may read and write only its state directory, the
 * audit paths. These helpers keep features working inside that box.
 */

/** A path the configuration uses, the flag that chose it, and whether it is also read. */
export interface ConfiguredPath {
  flag: string;
  path: string;
  read: boolean;
}

/** A start-up error when a configured path lies outside the granted permissions, else null. */
export function sandboxPathProblem(paths: readonly ConfiguredPath[]): string | null {
  for (const { flag, path, read } of paths) {
    const missing = [
      ...(Deno.permissions.querySync({ name: "write", path }).state === "granted" ? [] : ["write"]),
      ...(read && Deno.permissions.querySync({ name: "read", path }).state !== "granted" ? ["read"] : []),
    ];
    if (missing.length === 0) continue;
    const grants = missing.map((m) => `--allow-${m}=${path}`).join(" ");
    return `Cannot use ${flag} "${path}": the Deno permissions do not allow ${missing.join(" and ")} access there; ` +
      `add ${grants} to the deno run flags (the tmuxwright command and deno task start grant the paths given to them)`;
  }
  return null;
}

/**
 * Why `path` cannot be a pane's start directory, or null. Spawning `tmux -V` with that cwd lets
 * the OS answer (missing, not a directory, not enterable) without read access to the filesystem.
 */
export async function directoryProblem(path: string): Promise<string | null> {
  if (!path.startsWith("/")) return "must be an absolute path";
  try {
    await new Deno.Command("tmux", { args: ["-V"], cwd: path, stdin: "null", stdout: "null", stderr: "null" })
      .output();
    return null;
  } catch (error) {
    const message = (error as Error).message;
    if (/not a directory/i.test(message)) return "not a directory";
    if (error instanceof Deno.errors.NotFound && /cwd/i.test(message)) return "directory does not exist";
    if (error instanceof Deno.errors.PermissionDenied) return "directory is not accessible";
    throw error;
  }
}
