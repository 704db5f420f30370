import { TestServer } from "./harness.ts";

/**
 * Every kind of wait, each in flight on a pane when that pane stops being able to answer. One
 * set of panes per event: a shell pane with four waits at once (wait_for_text, watch_pane with a
 * pattern only, wait_for_text from a cursor, send_keys with wait), a shell for paste_text with
 * wait, a shell running execute_command, a python3 pane in run_in_repl, and start_process
 * waiting for a ready line that never comes. Every wait asks for 30 s.
 */
export const WAIT_MS = 30_000;

export interface InFlight {
  wait: string;
  pane: string;
  /** The call's answer and when it came (performance.now()). */
  done: Promise<{ text: string; isError: boolean; at: number }>;
}

export interface Armed {
  waits: InFlight[];
  /** The panes the waits are on (the event ends each). */
  panes: string[];
  /** The cursor taken on the shell pane before anything was typed. */
  cursor: string;
}

/** With `exits`, each program prints `last-words` and exits with 3 two seconds in; else it runs on. */
export async function armWaits(server: TestServer, exits: boolean, host?: string): Promise<Armed> {
  const on = host === undefined ? {} : { host };
  const made = async (args: Record<string, unknown> = {}) =>
    (await server.call<{ pane_id: string }>("create_pane", { ...on, ...args })).pane_id;
  const [shell, paster, exec, repl] = await Promise.all([made(), made(), made(), made({ command: "python3 -q" })]);
  const typed = exits ? "sleep 2; echo last-words; exit 3" : "sleep 600";
  const python = exits
    ? "import time; time.sleep(2); print('last-words'); raise SystemExit(3)"
    : "import time; time.sleep(600)";
  // Each shell is at its prompt and python shows its own before anything is typed.
  await Promise.all(
    [shell, paster, exec].map((pane_id) => server.call("execute_command", { pane_id, command: "true" })),
  );
  const prompt = await server.call<{ matched: boolean }>("wait_for_text", {
    pane_id: repl,
    pattern: "^>>> $",
    regex: true,
    since: "screen",
    timeout_ms: 20_000,
  });
  if (!prompt.matched) throw new Error("python3 showed no prompt");
  const cursor = (await server.call<{ cursor: string }>("capture_since", { pane_id: shell })).cursor;
  const waits: InFlight[] = [];
  const start = (wait: string, pane: string, tool: string, args: Record<string, unknown>) => {
    const done = server.raw(tool, { timeout_ms: WAIT_MS, ...args }).then(
      (r) => ({ ...r, at: performance.now() }),
      (error) => ({ text: `no answer: ${error}`, isError: true, at: performance.now() }), // never left unhandled
    );
    waits.push({ wait, pane, done });
  };
  start("wait_for_text", shell, "wait_for_text", { pane_id: shell, pattern: "never-matches" });
  start("watch_pane", shell, "watch_pane", { pane_id: shell, triggers: ["pattern:never-matches"] });
  start("wait_for_text cursor", shell, "wait_for_text", { pane_id: shell, pattern: "never-matches", cursor });
  await new Promise((resolve) => setTimeout(resolve, 300)); // listening before the keys go
  start("send_keys wait", shell, "send_keys", { pane_id: shell, text: typed, wait: ["pattern:never-matches"] });
  start("paste_text wait", paster, "paste_text", {
    pane_id: paster,
    text: typed,
    enter: true,
    wait: ["pattern:never-matches"],
  });
  start("execute_command", exec, "execute_command", { pane_id: exec, command: typed });
  start("run_in_repl", repl, "run_in_repl", { pane_id: repl, input: python, prompt: "^>>> $" });
  const name = `proc-${crypto.randomUUID().slice(0, 6)}`;
  start("start_process ready", name, "start_process", { ...on, name, command: typed, ready: "never-matches" });
  return { waits, panes: [shell, paster, exec, repl, name], cursor };
}
