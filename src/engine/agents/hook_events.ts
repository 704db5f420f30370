import { basename, join } from "node:path";
import type { HookEvent } from "./claude_hooks.ts";

/** One event a Claude Code hook wrote: Claude Code's own JSON (`prompt_id`, `last_assistant_message`, …). */
export type HookRecord = Record<string, unknown>;

/**
 * The events Claude Code's hooks wrote to the state directory (claude_hooks.ts), by process: the
 * latest of each kind, `PID.EVENT.json`. Read when a REPL turn needs them; watched (filesystem
 * events, no polling) while a turn waits for its end.
 */
export class ClaudeEvents {
  constructor(private readonly dir: string) {}

  /** The latest `event` of the Claude Code process `pid` (null: none, or unreadable). */
  async read(pid: number, event: HookEvent): Promise<HookRecord | null> {
    try {
      const json = JSON.parse(await Deno.readTextFile(join(this.dir, `${pid}.${event}.json`)));
      return json !== null && typeof json === "object" ? json as HookRecord : null;
    } catch {
      return null;
    }
  }

  /** Calls `changed` whenever the process `pid` writes an event, until the returned stop is called. */
  watch(pid: number, changed: () => void): () => void {
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(this.dir, { recursive: false });
    } catch {
      return () => {}; // no events directory: the screen says when the turn ends
    }
    const prefix = `${pid}.`;
    (async () => {
      for await (const event of watcher) {
        if (event.paths.some((path) => basename(path).startsWith(prefix) && path.endsWith(".json"))) changed();
      }
    })().catch(() => {});
    return () => {
      try {
        watcher.close();
      } catch { /* closed */ }
    };
  }
}
