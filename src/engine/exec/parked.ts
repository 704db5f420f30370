import { type Mark, MarkReader } from "../integration/mod.ts";
import type { PaneStream } from "./stream.ts";

/** How long a finished command's stream is kept for the next command in its pane. */
const PARK_MS = 60_000;

interface Parked {
  stream: PaneStream;
  pid: number | null;
  reader: MarkReader;
  stop: () => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Streams of integrated panes whose command has ended, kept a while: the stream goes on reading
 * the pane's output, so when the next command comes and the last mark it read is the shell's own
 * prompt mark, typing can start at once, without finding the log's end and its last mark again.
 * Anything else (a person typed a command: an S mark) and the next command takes the long way.
 */
export class ParkedStreams {
  readonly #panes = new Map<string, Parked>();

  /** Keeps `stream` (whose command ended; `last`: the last mark read on it) for `paneId`; closes one parked there before. */
  park(paneId: string, pid: number | null, stream: PaneStream, nonce: string, last: Mark | null): void {
    this.drop(paneId);
    const reader = new MarkReader(nonce);
    reader.last = last; // the command's own last mark: its prompt's P may have come with its end
    const parked: Parked = {
      stream,
      pid,
      reader,
      stop: stream.listen((bytes, offset) => void reader.push(bytes, offset)),
      timer: setTimeout(() => this.drop(paneId), PARK_MS),
    };
    Deno.unrefTimer(parked.timer);
    this.#panes.set(paneId, parked);
  }

  /** The pane's parked stream if its shell has drawn its prompt since (the caller owns it now), else null. */
  take(paneId: string, pid: number | null): PaneStream | null {
    const parked = this.#panes.get(paneId);
    if (!parked) return null;
    this.#panes.delete(paneId);
    clearTimeout(parked.timer);
    parked.stop();
    const last: Mark | null = parked.reader.last;
    if (last?.kind === "P" && last.pid === pid && pid === parked.pid) return parked.stream;
    parked.stream.close();
    return null;
  }

  drop(paneId: string): void {
    const parked = this.#panes.get(paneId);
    if (!parked) return;
    this.#panes.delete(paneId);
    clearTimeout(parked.timer);
    parked.stop();
    parked.stream.close();
  }

  close(): void {
    for (const paneId of [...this.#panes.keys()]) this.drop(paneId);
  }
}
