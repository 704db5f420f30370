/**
 * When to try a failing remote connection again: at once after a success, then after 250 ms,
 * doubling up to 8 s while attempts keep failing. Calls in between fail at once (with the last
 * reason) instead of each starting an ssh that would fail the same way.
 */
export class Backoff {
  #delayMs = 0;
  #retryAt = 0;

  constructor(private readonly firstMs = 250, private readonly maxMs = 8000) {}

  remainingMs(): number {
    return Math.max(0, this.#retryAt - performance.now());
  }

  failed(): void {
    this.#delayMs = this.#delayMs === 0 ? this.firstMs : Math.min(this.#delayMs * 2, this.maxMs);
    this.#retryAt = performance.now() + this.#delayMs;
  }

  succeeded(): void {
    this.#delayMs = 0;
    this.#retryAt = 0;
  }
}
