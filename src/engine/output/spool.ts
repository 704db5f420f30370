import { concatBytes } from "./rotation.ts";

/** Per pane and in all: the spool's bounds (the oldest bytes go first). */
const PANE_BYTES = 8 * 1024 * 1024;
const TOTAL_BYTES = 32 * 1024 * 1024;

interface PaneSpool {
  /** Offset of the first byte still held. */
  start: number;
  chunks: Uint8Array[];
  size: number;
  /** Last use, for evicting whole panes when the total bound is reached. */
  used: number;
}

/**
 * Where the full output of a budgeted result lives for a pane without a log (a user's pane):
 * each such output is appended here, and its offsets are what the result's marker names, so
 * `read_logs` (byte mode) returns the omitted part byte for byte. Kept in memory for this server's
 * lifetime, at most 8 MiB per pane and 32 MiB in all, oldest first.
 */
export class OutputSpool {
  readonly #panes = new Map<string, PaneSpool>();
  #total = 0;
  #clock = 0;

  /** Appends `bytes`; returns the spool offset of their first byte. */
  append(paneId: string, bytes: Uint8Array): number {
    const spool = this.#panes.get(paneId) ?? { start: 0, chunks: [], size: 0, used: 0 };
    this.#panes.set(paneId, spool);
    spool.used = ++this.#clock;
    const offset = spool.start + spool.size;
    spool.chunks.push(bytes.slice());
    spool.size += bytes.length;
    this.#total += bytes.length;
    while (spool.size > PANE_BYTES && spool.chunks.length > 1) this.#dropOldest(spool);
    while (this.#total > TOTAL_BYTES) {
      const oldest = [...this.#panes.values()].filter((s) => s.chunks.length > 0).sort((a, b) => a.used - b.used)[0];
      if (!oldest || (oldest === spool && spool.chunks.length <= 1)) break;
      this.#dropOldest(oldest);
    }
    return offset;
  }

  /** Bytes [from, from + max) of the pane's spool, or null when it has none. */
  read(
    paneId: string,
    from: number,
    max: number,
  ): { bytes: Uint8Array; start: number; end: number; from: number } | null {
    const spool = this.#panes.get(paneId);
    if (!spool) return null;
    const end = spool.start + spool.size;
    const at = Math.min(end, Math.max(spool.start, from < 0 ? end + from : from));
    const all = concatBytes(spool.chunks);
    const bytes = all.subarray(at - spool.start, Math.min(end, at + max) - spool.start);
    return { bytes, start: spool.start, end, from: at };
  }

  #dropOldest(spool: PaneSpool): void {
    const dropped = spool.chunks.shift()!;
    spool.start += dropped.length;
    spool.size -= dropped.length;
    this.#total -= dropped.length;
  }
}
