/**
 * Splits long synchronous work into slices so other callers' requests are served in between: `breathe()` returns
 * at once while the current slice is younger than `sliceMs`, else yields to the event loop first. Only a timer
 * yields for real: in Deno, `setImmediate`, `MessageChannel` and settled promises can let the loop go on without
 * polling I/O (scripts/bench_png.ts measures it), and a zero timer costs 1–2 ms, so slices are a few milliseconds.
 */
export class Pacer {
  #sliceStart = performance.now();

  constructor(private readonly sliceMs = 4) {}

  async breathe(): Promise<void> {
    if (performance.now() - this.#sliceStart < this.sliceMs) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.#sliceStart = performance.now();
  }
}
