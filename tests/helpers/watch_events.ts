/**
 * /watch/events read as a script would: each server-sent event in order, and a wait for the first
 * (or the latest) event of a kind whose data satisfies a condition. `await using` closes it.
 */
export interface WatchEvent {
  event: string;
  data: string;
}

export class WatchEvents {
  readonly events: WatchEvent[] = [];
  #changed: (() => void) | null = null;
  #ended = false;

  private constructor(private readonly reader: ReadableStreamDefaultReader<string>) {
    void this.#read();
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<WatchEvents> {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return new WatchEvents(response.body!.pipeThrough(new TextDecoderStream()).getReader());
  }

  async #read(): Promise<void> {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await this.reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) this.events.push({ event, data });
        }
        this.#changed?.();
      }
    } catch { /* cancelled */ }
    this.#ended = true;
    this.#changed?.();
  }

  /** The latest `event`'s parsed data once `test` holds for it (the latest seen so far is re-tested as more come). */
  async latest<T>(event: string, test: (data: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const last = this.events.findLast((e) => e.event === event);
      if (last && test(JSON.parse(last.data))) return JSON.parse(last.data);
      const left = deadline - performance.now();
      if (left <= 0 || this.#ended) {
        throw new Error(
          `no "${event}" event as expected within ${timeoutMs} ms; the last: ${last?.data.slice(0, 2000)}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#changed = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }
}
