import { join } from "node:path";
import type { TmuxServer } from "../../tmux/server.ts";
import { escapeFormat } from "../../tmux/quote.ts";
import { emptyLook, type FactsBackend, type Look } from "./look.ts";
import { parseProcLook, procScript } from "./proc_look.ts";
import { parsePsLook, psScript } from "./ps_look.ts";
import { PROC_TEST, signalGroupScript } from "./scripts.ts";

const TTY_PATH = /^\/dev\/[A-Za-z0-9._\/-]{1,64}$/;
const TTYS_KEPT = 1024;

/**
 * Takes looks at a pane's processes on one tmux server (local, or a host's link). Deno reads
 * /proc only with --allow-all, which the sandbox does not grant, and may start no program but
 * tmux: so tmux (which runs commands by design) runs a small fixed sh script, locally into a file
 * in the state directory, on a host through the link. Only a validated pid and terminal path
 * reach the script. Cost per look: one tmux client plus a few processes (see docs/BENCHMARKS.md).
 */
export class ProcessFacts {
  #counter = 0;
  #ready: Promise<void> | null = null;
  #backend: Promise<FactsBackend> | null = null;
  /** The pane's terminal by the pane's pid (the ps look selects by terminal). */
  readonly #ttys = new Map<number, string>();

  constructor(
    private readonly tmux: TmuxServer,
    private readonly stateDir: string,
    /** TMUXWRIGHT_PROCESS_FACTS; null: /proc where the host has it readable, else ps. */
    private readonly forced: FactsBackend | null = null,
  ) {}

  /** The backend this server's looks use, asked of the host once (a failed ask is asked again). */
  backend(): Promise<FactsBackend> {
    if (this.forced !== null) return Promise.resolve(this.forced);
    this.#backend ??= this.tmux.runShell(PROC_TEST).then((result) => result.status === 0 ? "proc" : "ps");
    return this.#backend.catch((error) => {
      this.#backend = null;
      throw error;
    });
  }

  /** One look at the pane whose first process is `panePid`; with `terminal`, its terminal's modes too. */
  async look(panePid: number, options: { terminal?: boolean } = {}): Promise<Look> {
    if (!Number.isSafeInteger(panePid) || panePid <= 0) throw new RangeError(`invalid pid ${panePid}`);
    const backend = await this.backend().catch(() => null);
    if (backend === null) return emptyLook(this.forced ?? "proc");
    if (backend === "proc") {
      const text = await this.#run(`P=${panePid}; ${procScript(options.terminal === true)}`);
      return text === null ? emptyLook("proc") : parseProcLook(text);
    }
    const look = await this.#psLook(panePid, options.terminal === true);
    // The terminal was known from an earlier look: a process not on it (gone, or its pid reused
    // later by another pane's) or a terminal closed since is asked of tmux again, once.
    if (look.facts.has(panePid) || !this.#ttys.delete(panePid)) return look;
    return await this.#psLook(panePid, options.terminal === true);
  }

  /** SIGTERM or SIGKILL to the foreground process group of the pane's terminal (a separate tmux job). */
  async signalForeground(panePid: number, signal: "TERM" | "KILL"): Promise<void> {
    const script = signalGroupScript(await this.backend(), panePid, signal);
    await this.tmux.oneShot("run-shell", "-b", `{ ${script}; } >/dev/null 2>&1`);
  }

  async #psLook(panePid: number, terminal: boolean): Promise<Look> {
    const tty = await this.#tty(panePid).catch(() => undefined);
    if (tty === undefined) return emptyLook("ps");
    // No pane has this process (any more): it is gone, as far as a pane is concerned.
    if (tty === null) return { ...emptyLook("ps"), ran: true };
    const text = await this.#run(`P=${panePid}; Y='${tty}'; ${psScript(terminal)}`);
    return text === null ? emptyLook("ps") : parsePsLook(text, panePid);
  }

  /** The terminal of the pane whose process is `panePid`, from tmux (null: no pane has it). */
  async #tty(panePid: number): Promise<string | null> {
    const known = this.#ttys.get(panePid);
    if (known !== undefined) return known;
    const rows = await this.tmux.run("list-panes", "-a", "-f", `#{==:#{pane_pid},${panePid}}`, "-F", "#{pane_tty}");
    const tty = rows.find((row) => TTY_PATH.test(row)) ?? null;
    if (tty === null) return null;
    this.#ttys.set(panePid, tty);
    if (this.#ttys.size > TTYS_KEPT) this.#ttys.delete(this.#ttys.keys().next().value!);
    return tty;
  }

  /** The script's stdout, or null when it could not be run. */
  async #run(script: string): Promise<string | null> {
    // A pane on another host: the script runs there, its output comes back through the link.
    if (this.tmux.remote) return (await this.tmux.runShell(script).catch(() => null))?.stdout ?? null;
    const dir = join(this.stateDir, "proc");
    this.#ready ??= Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await this.#ready;
    const file = join(dir, `${Deno.pid}-${++this.#counter}.txt`);
    if (/['\n%]/.test(file)) throw new RangeError(`unsafe path ${file}`);
    try {
      // Exit 0 whatever the last read did: tmux fails a run-shell whose script fails, and a gone
      // foreground group (tcsh leaves the terminal on an ended job) fails the last `ls`.
      await this.tmux.oneShot("run-shell", escapeFormat(`{ ${script}; } > '${file}' 2>/dev/null; exit 0`));
      return await Deno.readTextFile(file);
    } catch {
      return null;
    } finally {
      await Deno.remove(file).catch(() => {});
    }
  }
}
