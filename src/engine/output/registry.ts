import { basename, join } from "node:path";
import { logDir } from "./log_files.ts";
import { listSegments, segmentsByLog } from "./rotation.ts";

/**
 * A durable record of every log this state directory holds, one JSON line per owned pane, so a
 * killed pane's log stays findable by its id or name, also by a later server process (--keep).
 */
export interface LogEntry {
  pane_id: string;
  name: string | null;
  session: string;
  /** The tmux socket path: pane ids repeat across tmux servers. */
  socket: string | null;
  owner_pid: number;
  /** The server process that created the pane (its names); absent in entries of older versions. */
  instance?: string;
  created: string;
  path: string;
}

export function registryPath(stateDir: string): string {
  return join(logDir(stateDir), "registry.jsonl");
}

/**
 * Runs `step` holding the registry's lock (an exclusive flock, released if the holder dies), so a
 * retention rewrite never drops a line another server appends meanwhile.
 */
async function withRegistryLock<T>(stateDir: string, step: () => Promise<T>): Promise<T> {
  const file = await Deno.open(registryPath(stateDir) + ".lock", {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
  try {
    await file.lock(true); // held for one append or one rewrite: a millisecond
    return await step();
  } finally {
    file.close();
  }
}

/** Appends one entry; a single small append is atomic, so concurrent servers do not interleave lines. */
export async function recordLog(stateDir: string, entry: LogEntry): Promise<void> {
  await withRegistryLock(
    stateDir,
    () => Deno.writeTextFile(registryPath(stateDir), JSON.stringify(entry) + "\n", { append: true, mode: 0o600 }),
  );
}

export async function readRegistry(stateDir: string): Promise<LogEntry[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(registryPath(stateDir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const entries: LogEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line) as LogEntry;
      if (typeof entry.pane_id === "string" && typeof entry.path === "string") entries.push(entry);
    } catch { /* a torn line from a crash: skip it */ }
  }
  return entries;
}

/**
 * The logs of panes on this tmux server (pane ids repeat across tmux servers), newest first,
 * including panes that no longer exist.
 */
export async function logEntries(stateDir: string, socket: string | null): Promise<LogEntry[]> {
  const entries = await readRegistry(stateDir);
  return entries.filter((e) => socket === null || e.socket === null || e.socket === socket).reverse();
}

/**
 * Retention: removes logs whose last write is older than `days`, and drops their registry lines.
 * Age is the only test: the sandboxed server cannot ask the OS whether a writer lives, and a
 * pane that wrote nothing for that long has nothing new to lose.
 */
export async function pruneLogs(stateDir: string, days: number): Promise<string[]> {
  const entries = await readRegistry(stateDir);
  const cutoff = Date.now() - days * 86_400_000;
  const removed: string[] = [];
  const files = await segmentsByLog(logDir(stateDir));
  for (const entry of entries) {
    if (!entry.path.startsWith(logDir(stateDir) + "/")) {
      continue;
    }
    // Not in the listing: a log begun since (looked at again), or one plain file from before rotation.
    const paths = files.get(entry.path) ?? (await listSegments(entry.path)).map((segment) => segment.path);
    const stats = await Promise.all(paths.map((path) => Deno.lstat(path).catch(() => null)));
    const newest = Math.max(0, ...stats.map((s) => s?.isFile ? s.mtime?.getTime() ?? 0 : 0));
    if (newest > cutoff) {
      continue;
    }
    for (const path of paths) if (path !== entry.path) await Deno.remove(path).catch(() => {});
    await Deno.remove(entry.path).catch(() => {}); // the symlink
    removed.push(entry.path);
  }
  if (removed.length > 0) {
    // Re-read under the lock so lines another server appended meanwhile survive.
    const gone = new Set(removed);
    await withRegistryLock(stateDir, async () => {
      const latest = (await readRegistry(stateDir)).filter((e) => !gone.has(e.path));
      const tmp = registryPath(stateDir) + `.${Deno.pid}.tmp`;
      await Deno.writeTextFile(tmp, latest.map((e) => JSON.stringify(e) + "\n").join(""), { mode: 0o600 });
      await Deno.rename(tmp, registryPath(stateDir));
    });
  }
  return removed.map((path) => basename(path));
}
