import { basename, dirname, join } from "node:path";

/**
 * The proof that a workspace's server process lives: an exclusive `flock` on a file of its own
 * in the state directory, taken before the workspace session is created and held until exit.
 * The kernel releases it when the process dies, however it dies (SIGKILL included), and it is
 * not inherited by the processes the server starts (Deno opens files close-on-exec), so a tmux
 * server started by a dead process does not keep it.
 */
export function lockDir(stateDir: string): string {
  return join(stateDir, "workspaces");
}

/** `<pid>-<random>`: unique per server process, also when a pid is reused. */
export function newInstanceId(pid: number): string {
  const random = [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${pid}-${random}`;
}

const LOCK_FILE = /^\d+-[0-9a-f]{12}\.lock$/;

/** Where this machine's control clients keep their link's fifos (src/tmux/local_link.ts): private to the state directory. */
export function linkDir(stateDir: string): string {
  return join(stateDir, "links");
}

export function lockPathFor(stateDir: string, instance: string): string {
  return join(lockDir(stateDir), `${instance}.lock`);
}

/** Whether the process that holds (held) a lock lives; `unknown` when this process cannot tell. */
export type Liveness = "alive" | "dead" | "unknown";

export class OwnerLock {
  private constructor(readonly path: string, private readonly file: Deno.FsFile) {}

  static async acquire(stateDir: string, instance: string): Promise<OwnerLock> {
    await Deno.mkdir(lockDir(stateDir), { recursive: true, mode: 0o700 });
    const path = lockPathFor(stateDir, instance);
    const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
    if (!await file.tryLock(true)) {
      file.close();
      throw new Error(`the owner lock ${path} is held by another process`);
    }
    await file.write(new TextEncoder().encode(`${instance.split("-")[0]}\n`)); // for a person looking
    return new OwnerLock(path, file);
  }

  /** Removes the file first, so no one can take the released lock as proof of a death. */
  async release(): Promise<void> {
    await Deno.remove(this.path).catch(() => {});
    try {
      this.file.close();
    } catch { /* already closed */ }
  }
}

/**
 * Tests a lock without waiting: a lock someone holds means its owner lives; a lock this process
 * gets at once means the owner is dead. A lock outside this state directory (another server's
 * state directory: not ours to open, and maybe outside the sandbox) or a missing file is `unknown`.
 */
export async function ownerLiveness(stateDir: string, lockPath: string): Promise<Liveness> {
  if (dirname(lockPath) !== lockDir(stateDir) || !LOCK_FILE.test(basename(lockPath))) return "unknown";
  let file: Deno.FsFile;
  try {
    file = await Deno.open(lockPath, { read: true });
  } catch {
    return "unknown";
  }
  try {
    return await file.tryLock(true) ? "dead" : "alive";
  } catch {
    return "unknown";
  } finally {
    file.close();
  }
}
