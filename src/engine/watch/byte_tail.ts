/**
 * The newest bytes of a stream, at most `capacity` of them, in one reused ring buffer: what a wait
 * reports at its end is rendered from here, so nothing is kept per line while output flows.
 */
export class ByteTail {
  #ring = new Uint8Array(0);
  /** Where the next byte goes once the ring is full (before that, `#total` is the fill). */
  #end = 0;
  #total = 0;

  constructor(readonly capacity: number) {}

  /** Bytes pushed in all. */
  get total(): number {
    return this.#total;
  }

  /** Older bytes were overwritten. */
  get dropped(): boolean {
    return this.#total > this.capacity;
  }

  /** Forgets every byte pushed so far. */
  clear(): void {
    this.#end = 0;
    this.#total = 0;
  }

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const cap = this.capacity;
    if (this.#ring.length === cap || this.#total + bytes.length <= this.#ring.length) {
      this.#write(bytes);
      return;
    }
    // Still filling: grow (doubling, up to the capacity) so idle watches stay small.
    let size = Math.max(4096, this.#ring.length);
    while (size < this.#total + bytes.length && size < cap) size *= 2;
    const grown = new Uint8Array(Math.min(size, cap));
    grown.set(this.#ring.subarray(0, this.#total));
    this.#ring = grown;
    this.#end = this.#total % grown.length;
    this.#write(bytes);
  }

  #write(bytes: Uint8Array): void {
    const ring = this.#ring;
    const src = bytes.length > ring.length ? bytes.subarray(bytes.length - ring.length) : bytes;
    const first = Math.min(src.length, ring.length - this.#end);
    ring.set(src.subarray(0, first), this.#end);
    if (first < src.length) ring.set(src.subarray(first), 0);
    this.#end = (this.#end + src.length) % ring.length;
    this.#total += bytes.length;
  }

  /** The kept bytes, oldest first (a copy). */
  bytes(): Uint8Array {
    const ring = this.#ring;
    if (this.#total < ring.length) return ring.slice(0, this.#total);
    const out = new Uint8Array(ring.length);
    out.set(ring.subarray(this.#end));
    out.set(ring.subarray(0, this.#end), ring.length - this.#end);
    return out;
  }
}
