/**
 * How long after tmux itself shows a command's end does execute_command report it? One run, the
 * same commands, three observers of the same output:
 *
 * - a bare `tmux -C` client attached to the pane's session reads the end mark in `%output` (the
 *   floor: nothing but tmux in between);
 * - this script follows the pane's log file with its own filesystem watch (the path the server
 *   follows: tmux → the pipe-pane writer → the file → inotify);
 * - the MCP client receives execute_command's result.
 *
 *   deno run -A scripts/bench_completion.ts [rounds] [--shells bash,zsh,fish] [--homes light,heavy,root]
 *
 * Each shell runs from each home in one run: the test home (no start-up files: light), a heavy
 * one (tests/helpers/heavy_shell.ts: ~0.5 s of CPU at start-up, a ~20 ms prompt hook), and with
 * `root` the user's own (this machine's root runs pyenv init and its prompt hook). The command is
 * `sleep 0.02; echo "d"oneN` (its echo on the screen is not its output): "result − its last line at a bare client" is the completion, whatever
 * the shell runs between the command's end and its prompt.
 *
 * Prints per pane kind the medians and p95 of: result − bare client (goal ≤ 1.5 ms), log − bare
 * client (the log path's share), result − log (the server and the MCP reply), and capture_pane
 * end to end (which must not get slower).
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { unescapeOutput } from "../src/tmux/control_parser.ts";
import { BareClient } from "./bare_client.ts";
import { heavyHome } from "../tests/helpers/heavy_shell.ts";

const rounds = Number(Deno.args.find((arg) => /^\d+$/.test(arg)) ?? 60);
const SHELLS: Record<string, string> = { bash: "/bin/bash", zsh: "/usr/bin/zsh", fish: "/usr/bin/fish" };

function flag(name: string): string | undefined {
  const at = Deno.args.indexOf(name);
  return at >= 0 ? Deno.args[at + 1] : undefined;
}
const ESC_MARK = "\x1b]6973;";

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms`;
}

/** When `text` holds a mark of `kind` (`ESC ] 6973 ; NONCE ; KIND`) after position `from`. */
function markAt(text: string, from: number, kind: string): boolean {
  let at = text.indexOf(ESC_MARK, from);
  while (at >= 0) {
    if (text.slice(at + ESC_MARK.length).replaceAll("\x07", ";").split(";")[1] === kind) return true;
    at = text.indexOf(ESC_MARK, at + 1);
  }
  return false;
}

/** A stream of one pane's bytes (as latin1 text) with waiters for what comes next after a point. */
class Observer {
  text = "";
  #waiters: { from: number; test: (text: string, from: number) => boolean; resolve: (t: number) => void }[] = [];

  feed(chunk: string): void {
    this.text += chunk;
    const now = performance.now();
    this.#waiters = this.#waiters.filter((w) => !(w.test(this.text, w.from) && (w.resolve(now), true)));
  }

  /** Resolves with the time the first byte after now arrives. */
  nextByte(): Promise<number> {
    return this.#wait((text, from) => text.length > from);
  }

  /** Resolves with the time `text` (after now) has arrived whole. */
  nextText(text: string): Promise<number> {
    return this.#wait((all, from) => all.indexOf(text, from) >= 0);
  }

  /** Resolves with the time the next mark of `kind` (after now) arrives. */
  nextMark(kind: string): Promise<number> {
    return this.#wait((text, from) => markAt(text, from, kind));
  }

  #wait(test: (text: string, from: number) => boolean): Promise<number> {
    return new Promise((resolve) => this.#waiters.push({ from: this.text.length, test, resolve }));
  }
}

const latin1 = new TextDecoder("latin1");

type Series = {
  total: number[];
  firstByte: number[];
  resultVsOutput: number[];
  resultVsBare: number[];
  logVsBare: number[];
  resultVsLog: number[];
};

/**
 * One server with `SHELL=shell` (HOME: the test home, or a heavy one): its default (integrated)
 * pane and, with `wrapper`, a `bash --norc` pane, each observed by a bare client, the log and the
 * MCP client; the floor is a bare client typing into its own `bash --norc` pane on the same tmux.
 */
async function measure(label: string, shell: string, home: string | null, wrapper: boolean): Promise<void> {
  const env: Record<string, string> = { SHELL: shell };
  if (home) env.HOME = home;
  await using server = await TestServer.start({ env });
  const kinds: string[] = [`${label}: default pane (integrated ${shell.split("/").pop()})`];
  await server.call("execute_command", { command: "true" });
  const paneIds = [(await server.call<{ panes: { pane_id: string }[] }>("list_panes")).panes[0].pane_id];
  if (wrapper) {
    const plain = await server.call<{ pane_id: string }>("create_pane", { command: "exec bash --norc --noprofile" });
    await server.call("execute_command", { pane_id: plain.pane_id, command: "true" });
    kinds.push(`${label}: bash --norc pane (wrapper line)`);
    paneIds.push(plain.pane_id);
  }
  const fact = async (pane: string, format: string) =>
    (await server.tmux("display-message", "-p", "-t", pane, format)).stdout.trim();
  const session = await fact(paneIds[0], "#{session_name}");

  // Observer 1: a bare control client on the workspace session (output on for every pane there).
  const bare = paneIds.map(() => new Observer());
  const client = new Deno.Command("tmux", {
    args: ["-S", server.socket, "-C", "attach", "-t", `=${session}`],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  void (async () => {
    const decoder = new TextDecoder("latin1");
    let buffered = "";
    for await (const chunk of client.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith("%output ")) continue;
        const space = line.indexOf(" ", 8);
        const i = paneIds.indexOf(line.slice(8, space));
        if (i < 0) continue;
        const raw = Uint8Array.from(line.slice(space + 1), (c) => c.charCodeAt(0));
        bare[i].feed(latin1.decode(unescapeOutput(raw)));
      }
    }
  })();

  // Observer 2: the panes' log files, followed as the server follows them (a watch on their directory).
  const logs = await Promise.all(paneIds.map(async (p) => decodeURIComponent(await fact(p, "#{@tmuxwright_log}"))));
  const logged = paneIds.map(() => new Observer());
  const offsets = logs.map(() => 0);
  const segments = await Promise.all(logs.map((l) => Deno.realPath(l)));
  for (let i = 0; i < logs.length; i++) offsets[i] = (await Deno.stat(segments[i])).size;
  const watcher = Deno.watchFs(segments.map((s) => s.slice(0, s.lastIndexOf("/")))[0]);
  void (async () => {
    for await (const event of watcher) {
      for (let i = 0; i < segments.length; i++) {
        if (!event.paths.includes(segments[i])) continue;
        const file = await Deno.open(segments[i]);
        await file.seek(offsets[i], Deno.SeekMode.Start);
        const buffer = new Uint8Array(65536);
        const n = await file.read(buffer);
        file.close();
        if (n === null || n === 0) continue;
        offsets[i] += n;
        logged[i].feed(latin1.decode(buffer.subarray(0, n)));
      }
    }
  })().catch(() => {});

  // The floor end to end: a bare client types the same command into its own bash --norc pane.
  await using floor = await BareClient.open(server.socket);

  const results: Series[] = kinds.map(() => ({
    total: [],
    firstByte: [],
    resultVsOutput: [],
    resultVsBare: [],
    logVsBare: [],
    resultVsLog: [],
  }));
  const captures: number[] = [];
  const floorTotal: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < paneIds.length; i++) {
      const first = bare[i].nextByte();
      const lastLine = bare[i].nextText(`done${r}\r\n`);
      const bareEnd = bare[i].nextMark("E");
      const logEnd = logged[i].nextMark("E");
      const t = performance.now();
      await server.call("execute_command", { pane_id: paneIds[i], command: `sleep 0.02; echo "d"one${r}` });
      const done = performance.now();
      const [f, o, b, l] = await Promise.all([first, lastLine, bareEnd, logEnd]);
      results[i].total.push(done - t - 20);
      results[i].resultVsOutput.push(done - o);
      results[i].firstByte.push(f - t);
      results[i].resultVsBare.push(done - b);
      results[i].logVsBare.push(l - b);
      results[i].resultVsLog.push(done - l);
    }
    floorTotal.push(await floor.run("sleep 0.02") - 20);
    const t = performance.now();
    await server.call("capture_pane", { pane_id: paneIds[0] });
    captures.push(performance.now() - t);
  }
  console.log(
    `${label}: floor, a bare tmux -C client types "sleep 0.02", to its next prompt − 20 ms: ${stats(floorTotal)}`,
  );
  for (let i = 0; i < kinds.length; i++) {
    console.log(`${kinds[i]}, execute_command('sleep 0.02; echo "d"oneN'), ${rounds} rounds:`);
    console.log(`  result at the client − its last line at a bare client:     ${stats(results[i].resultVsOutput)}`);
    console.log(`  end to end − 20 ms:                                        ${stats(results[i].total)}`);
    console.log(`  call → the pane's first byte (the typed line's echo):      ${stats(results[i].firstByte)}`);
    console.log(`  result at the client − end mark at a bare tmux -C client: ${stats(results[i].resultVsBare)}`);
    console.log(`  end mark in the log file (inotify) − bare client:          ${stats(results[i].logVsBare)}`);
    console.log(`  result at the client − end mark in the log file:           ${stats(results[i].resultVsLog)}`);
  }
  console.log(`${label}: capture_pane, end to end:                            ${stats(captures)}`);
  watcher.close();
  await client.stdin.close();
  await client.status;
}

const shells = (flag("--shells") ?? "bash").split(",").map((name) => SHELLS[name] ?? name);
const which = flag("--homes") ?? "light,heavy";
const heavy = which.includes("heavy") ? await heavyHome() : null;
console.log(`load average: ${(await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")}`);
try {
  for (const shell of shells) {
    if (which.includes("light")) await measure("light", shell, null, shell === shells[0]);
    if (heavy) await measure("heavy", shell, heavy, false);
    if (which.includes("root")) await measure("this user's own start-up files", shell, Deno.env.get("HOME")!, false);
  }
} finally {
  if (heavy) await Deno.remove(heavy, { recursive: true });
}
console.log(`load average: ${(await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")}`);
