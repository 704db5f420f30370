import { buildServerDir, SERVER_ENTRY } from "./bundle.ts";

/**
 * What `deno task start` runs: the checkout built as the npm package is (bundle.ts) into
 * dist/start/server/, rebuilt when a source changed. A bundle starts in about half
 * the time of main.ts run from source, which resolves the MCP SDK's ~100 npm modules every time.
 *
 * dist/start/SOURCES holds the fingerprint of the sources it was built from (every path, size and
 * modification time under src/, plus main.ts, deno.json and deno.lock), and its modification time
 * is when the build began. tmuxwright.sh runs dist/start/server/main.js while no source is newer
 * than SOURCES (one `find`); otherwise launch.ts compares fingerprints here and rebuilds when they
 * differ. Builds are serialized by a lock directory and swapped in whole; a server already running
 * keeps the modules it loaded.
 */

const SOURCES_FILE = "SOURCES";
/** A build takes seconds; a lock older than this was left by a start that died while building. */
const LOCK_STALE_MS = 30_000;

/** The fresh bundle's entry, or null when it cannot be built here (a read-only checkout, a build error). */
export async function freshStartBundle(root: string, deno: string): Promise<string | null> {
  const dir = `${root}/dist/start`;
  const entry = `${dir}/server/${SERVER_ENTRY}`;
  const failed = `${dir}.failed`;
  const sources = sourcesFingerprint(root);
  if (readText(`${dir}/${SOURCES_FILE}`) === sources) return entry;
  if (readText(failed) === sources) return null; // it did not build: not again until a source changes
  try {
    Deno.mkdirSync(`${root}/dist`, { recursive: true });
    if (!await lock(`${dir}.lock`)) return null;
  } catch {
    return null;
  }
  try {
    // Another start may have built it while this one waited for the lock.
    const began = new Date();
    const fingerprint = sourcesFingerprint(root);
    if (readText(`${dir}/${SOURCES_FILE}`) === fingerprint) return entry;
    const building = `${dir}.${Deno.pid}`;
    try {
      await buildServerDir(deno, root, building);
    } catch {
      Deno.writeTextFileSync(failed, fingerprint);
      return null; // main.ts run from source says what is wrong
    }
    Deno.writeTextFileSync(`${building}/${SOURCES_FILE}`, fingerprint);
    Deno.utimeSync(`${building}/${SOURCES_FILE}`, began, began);
    const old = `${dir}.old.${Deno.pid}`;
    const replacing = exists(dir);
    if (replacing) Deno.renameSync(dir, old);
    Deno.renameSync(building, dir);
    if (replacing) Deno.removeSync(old, { recursive: true });
    return entry;
  } catch {
    return null;
  } finally {
    try {
      Deno.removeSync(`${dir}.${Deno.pid}`, { recursive: true });
    } catch { /* moved into place, or never made */ }
    try {
      Deno.removeSync(`${dir}.lock`);
    } catch { /* broken as stale by another start */ }
  }
}

/** Takes the lock directory, waiting while another start builds; breaks a lock left by a build that died. */
async function lock(path: string): Promise<boolean> {
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      Deno.mkdirSync(path);
      return true;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    const since = stat(path)?.mtime?.getTime();
    if (since !== undefined && Date.now() - since > LOCK_STALE_MS) Deno.removeSync(path);
    else if (Date.now() > deadline) return false;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every source the bundle depends on, as one string: path, size and mtime of each file. */
export function sourcesFingerprint(root: string): string {
  const entries: string[] = [];
  const add = (path: string) => {
    const info = Deno.statSync(`${root}/${path}`);
    entries.push(`${path} ${info.size} ${info.mtime?.getTime() ?? 0}`);
  };
  for (const file of ["main.ts", "deno.json", "deno.lock"]) add(file);
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(`${root}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (entry.isFile) add(path);
    }
  };
  walk("src");
  return entries.sort().join("\n");
}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function stat(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

function exists(path: string): boolean {
  return stat(path) !== null;
}
