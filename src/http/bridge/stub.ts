import {
  type BridgeBackend,
  type CaptureOptions,
  duplicate,
  notFound,
  type SendAndCaptureOptions,
  type SendInput,
  waitTimedOut,
} from "./backend.ts";
import { LIMITS } from "./request.ts";
import { abortableDelay } from "./delay.ts";

interface StubSession {
  cwd: string | undefined;
  lines: string[];
  /** Woken on every append, so a wait_for is decided by event, never by polling. */
  listeners: Set<() => void>;
}

/**
 * The bridge contract served from memory: runs nothing and needs no tmux. Sent input becomes one
 * line (`text <Key> <Enter>`), so front ends and their tests can drive it deterministically.
 */
export class StubBackend implements BridgeBackend {
  readonly mode = "stub";
  readonly #sessions = new Map<string, StubSession>();

  health() {
    return Promise.resolve({ backend: "stub", sessions: this.#sessions.size });
  }

  list() {
    return Promise.resolve([...this.#sessions.keys()].sort());
  }

  create(name: string, cwd: string | undefined) {
    if (this.#sessions.has(name)) return Promise.reject(duplicate(name));
    this.#sessions.set(name, { cwd, lines: [], listeners: new Set() });
    return Promise.resolve();
  }

  send(session: string, input: SendInput) {
    try {
      this.#append(session, input);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  capture(session: string, options: CaptureOptions) {
    try {
      return Promise.resolve(this.#capture(session, options));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async sendAndCapture(session: string, input: SendInput, options: SendAndCaptureOptions, signal: AbortSignal) {
    const started = performance.now();
    this.#append(session, input);
    await abortableDelay(options.waitMs, signal);
    const output = options.waitFor ? await this.#waitFor(session, options, signal) : this.#capture(session, options);
    return { output, elapsedMs: performance.now() - started };
  }

  kill(session: string) {
    const entry = this.#sessions.get(session);
    if (!entry) return Promise.reject(notFound(session));
    this.#sessions.delete(session);
    for (const wake of entry.listeners) wake(); // pending waits see the session gone
    return Promise.resolve();
  }

  close() {
    for (const name of [...this.#sessions.keys()]) this.kill(name);
    return Promise.resolve();
  }

  #get(session: string): StubSession {
    const entry = this.#sessions.get(session);
    if (!entry) throw notFound(session);
    return entry;
  }

  #append(session: string, input: SendInput): void {
    const entry = this.#get(session);
    const fragments = [
      ...(input.text !== undefined ? [input.text] : []),
      ...(input.keys ?? []).map((key) => `<${key}>`),
      ...(input.enter ? ["<Enter>"] : []),
    ];
    if (fragments.length === 0) return;
    entry.lines.push(fragments.join(" "));
    if (entry.lines.length > LIMITS.lines.max) entry.lines.splice(0, entry.lines.length - LIMITS.lines.max);
    for (const wake of entry.listeners) wake();
  }

  #capture(session: string, options: CaptureOptions): string {
    return this.#get(session).lines.slice(-options.lines).join("\n");
  }

  /** Resolves with the capture once it matches; re-checked on each append to the session. */
  #waitFor(session: string, options: SendAndCaptureOptions, signal: AbortSignal): Promise<string> {
    const pattern = options.waitFor!;
    return new Promise((resolve, reject) => {
      const entry = this.#get(session);
      const finish = (error: Error | null, output = "") => {
        clearTimeout(timer);
        entry.listeners.delete(check);
        signal.removeEventListener("abort", aborted);
        if (error) reject(error);
        else resolve(output);
      };
      const check = () => {
        if (!this.#sessions.has(session)) return finish(notFound(session));
        const output = this.#capture(session, options);
        if (pattern.test(output)) finish(null, output);
      };
      const aborted = () => finish(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      const timer = setTimeout(() => finish(waitTimedOut(options.timeoutMs)), options.timeoutMs);
      if (signal.aborted) return aborted();
      entry.listeners.add(check);
      signal.addEventListener("abort", aborted, { once: true });
      check();
    });
  }
}
