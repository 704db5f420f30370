/**
 * Headless Chromium driven over the Chrome DevTools Protocol (its own WebSocket; no npm driver):
 * open a page, evaluate expressions in it, wait for a condition. `await using` ends the browser.
 */
const CHROMIUM = "/usr/bin/chromium";

export class Browser {
  #nextId = 1;
  readonly #waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(
    private readonly child: Deno.ChildProcess,
    private readonly profile: string,
    private readonly socket: WebSocket,
  ) {
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      const waiter = this.#waiting.get(message.id);
      if (!waiter) return;
      this.#waiting.delete(message.id);
      if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
      else waiter.resolve(message.result);
    };
  }

  /** Starts Chromium with a blank page and attaches to that page. */
  static async launch(): Promise<Browser> {
    const profile = await Deno.makeTempDir({ prefix: "tw-cdp" });
    const child = new Deno.Command(CHROMIUM, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--remote-debugging-port=0",
        `--user-data-dir=${profile}`,
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const port = await waitFor(
      async () => {
        const text = await Deno.readTextFile(`${profile}/DevToolsActivePort`).catch(() => "");
        return text.includes("\n") ? Number(text.split("\n")[0]) : null;
      },
      20_000,
      "Chromium's DevTools port",
    );
    const targets = await waitFor(
      async () => {
        const list = await fetch(`http://127.0.0.1:${port}/json/list`).then((r) => r.json()).catch(() => null);
        return Array.isArray(list) && list.some((t) => t.type === "page") ? list : null;
      },
      10_000,
      "a page target",
    );
    const page = targets.find((t: { type: string }) => t.type === "page");
    const socket = new WebSocket(page.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error("cannot reach Chromium's page over CDP"));
    });
    const browser = new Browser(child, profile, socket);
    await browser.send("Page.enable");
    await browser.send("Runtime.enable");
    return browser;
  }

  /** One CDP command; a page that never answers fails the call after 30 s instead of hanging the test. */
  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.#nextId++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    return new Promise((resolve, reject) => {
      timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new Error(`${method} got no answer within 30 s`));
      }, 30_000);
      this.#waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    }).finally(() => clearTimeout(timer));
  }

  /** The page's viewport in CSS pixels (1× density), as a person's window of that size shows it. */
  async viewport(width: number, height: number): Promise<void> {
    await this.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
  }

  async navigate(url: string): Promise<void> {
    await this.send("Page.navigate", { url });
  }

  /** The value of an expression evaluated in the page (promises awaited). */
  async evaluate<T>(expression: string): Promise<T> {
    const result = await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true }) as {
      result: { value: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (result.exceptionDetails) {
      throw new Error(result.exceptionDetails.exception?.description ?? result.exceptionDetails.text);
    }
    return result.result.value;
  }

  /** Evaluates `expression` until it is truthy; returns that value. */
  until<T>(expression: string, timeoutMs = 10_000): Promise<T> {
    return waitFor(() => this.evaluate<T>(expression).catch(() => null), timeoutMs, expression);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.socket.close();
    } catch { /* closed */ }
    try {
      this.child.kill("SIGKILL");
    } catch { /* gone */ }
    await this.child.status;
    await Deno.remove(this.profile, { recursive: true }).catch(() => {});
  }
}

async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, ms: number, what: string): Promise<T> {
  const deadline = performance.now() + ms;
  while (true) {
    const value = await probe();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
