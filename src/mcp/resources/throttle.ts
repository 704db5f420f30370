/**
 * At most one call of `fire` per `intervalMs`: the first poke fires at once, pokes during the
 * interval fold into one call at its end. A quiet source is reported without delay; a flooding
 * one costs the client `1000 / intervalMs` notifications a second, never more.
 */
export class Throttle {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pending = false;

  constructor(private readonly intervalMs: number, private readonly fire: () => void) {}

  poke(): void {
    if (this.#timer !== undefined) {
      this.#pending = true;
      return;
    }
    this.fire();
    this.#arm();
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = false;
  }

  #arm(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#pending) return;
      this.#pending = false;
      this.fire();
      this.#arm();
    }, this.intervalMs);
  }
}
