/**
 * One agent under stress: a session (HTTP or stdio) that calls a random mix of pane tools, checks
 * each answer, and ends, drops or comes back at random. Its choices come from its own seeded source.
 */
import type { Rng } from "./rng.ts";
import type { Fleet } from "./fleet.ts";
import type { Ledger } from "./checks.ts";
import { callDeadline } from "../../src/mcp/deadlines.ts";
import type { LeakWatch } from "./leaks.ts";
import { type Answer, Session } from "./session.ts";
import { jsStack, processTree } from "./diagnose.ts";

export interface PaneRec {
  id: string;
  kind: "shell" | "proc" | "repl";
  /** When it was created: a fault begun since then may have taken it. */
  born: number;
  host: string | null;
  window: string | null;
  /** The last token a command printed in it (read_logs and search_panes look for it). */
  token?: string;
}

/** Codes that say a pane is gone: fine after a fault that removes panes, a bug otherwise. */
const GONE = ["PANE_NOT_FOUND", "PANE_DEAD", "PANE_GONE"];
/** Faults that remove panes or break calls. */
const DESTRUCTIVE = ["tmux-kill", "http-crash", "ssh-cut", "host-restart"];

export class Actor {
  session: Session | null = null;
  panes: PaneRec[] = [];
  instance: string | null = null;
  /** A dropped HTTP session this actor will come back to. */
  resume: { id: string; generation: number; instance: string | null } | null = null;
  #n = 0;

  constructor(
    readonly name: string,
    readonly via: "http" | "stdio",
    readonly rng: Rng,
    readonly fleet: Fleet,
    readonly ledger: Ledger,
    readonly leaks: LeakWatch,
  ) {}

  token(): string {
    return `${this.name}t${++this.#n}`;
  }

  /** Opens a session: comes back to a dropped one when it can, else a new one. */
  async open(): Promise<void> {
    if (this.resume && this.resume.generation === this.fleet.generation) {
      const back = this.resume;
      this.resume = null;
      this.session = await Session.http(this.fleet, back, this.name);
      this.instance = back.instance;
      return;
    }
    if (this.resume) this.leaks.expectGone(this.resume.instance, 45_000, `${this.name}'s session of a crashed server`);
    this.resume = null;
    this.panes = [];
    this.instance = null;
    this.session = this.via === "http"
      ? await Session.http(this.fleet, undefined, this.name)
      : await Session.stdio(this.fleet);
  }

  /**
   * One call: timed, recorded, and checked for what every answer must be (in time: by the call's
   * deadline, from src/mcp/deadlines.ts; `limitMs` is where the client itself gives up, beyond it).
   */
  async call(tool: string, args: Record<string, unknown>, limitMs: number, signal?: AbortSignal): Promise<Answer> {
    const session = this.session;
    if (!session) return { kind: "transport", text: "the session is gone", ms: 0 };
    const from = performance.now();
    const { answerByMs } = callDeadline(tool, args);
    const answer = await session.call(tool, args, Math.max(limitMs, answerByMs) + 10_000, signal);
    this.ledger.record(this.name, tool, answerByMs, answer, from);
    if (answer.kind === "transport" && session.stdio && !this.excused(from)) {
      // A stdio server that stopped answering: what it waits on, seen from outside, before it is killed.
      const tree = await processTree(session.stdio.pid).catch((e) => [String(e)]);
      const port = this.fleet.inspectors.get(session.stdio.pid);
      if (port !== undefined) tree.push("  JavaScript:", ...await jsStack(port).catch((e) => [`  ${e}`]));
      console.log(
        `[${this.name}] the stdio server ${session.stdio.pid} did not answer ${tool}; its processes:\n` +
          `${tree.join("\n")}\n  stderr: ${session.stdio.stderr.join("").split("\n").slice(-15).join("\n  ")}`,
      );
    }
    if (answer.kind === "transport" && this.session === session) {
      // The server went away (a crash) or the session expired: its panes go with it; another opens next time.
      const crashed = session.via === "http" && session.generation !== this.fleet.generation;
      this.leaks.expectGone(
        this.instance,
        crashed ? 20_000 : 60_000,
        `${this.name}'s session after a broken transport`,
      );
      this.session = null;
      this.panes = [];
      this.instance = null;
      await session.drop();
    }
    if (answer.kind === "ok" && this.instance === null) await this.#learnInstance(answer.json.pane_id);
    return answer;
  }

  /** Whether a fault may have touched calls made since `from` (then only a code and a deadline are required). */
  excused(from: number): boolean {
    return this.ledger.faultsDuring(from, performance.now(), this.name).length > 0;
  }

  /**
   * The usual check after a call on `pane`: true when the answer is a result to check further. An
   * error is fine only when a fault explains it; a gone pane is then forgotten.
   */
  settle(tool: string, answer: Answer, from: number, pane?: PaneRec): answer is Answer & { kind: "ok" } {
    if (answer.kind === "ok") return true;
    if (answer.kind === "transport") return false; // judged by the ledger
    // ssh under load (sshd throttles concurrent handshakes) may fail a connect: coded, and the next call retries.
    const late = answer.code === "TIMEOUT" && this.ledger.loaded;
    if (late) this.ledger.timeouts++;
    const excused = this.excused(from) || answer.code === "HOST_UNREACHABLE" || late ||
      (pane !== undefined && this.ledger.faultsSince(pane.born, DESTRUCTIVE) > 0);
    if (pane && GONE.includes(answer.code) && excused) this.forget(pane);
    else if (!excused) this.ledger.violation(this.name, `${tool} failed with no fault to explain it`, answer);
    return false;
  }

  /** A check on a result: a violation unless a fault overlapped the call. */
  expect(ok: boolean, what: string, answer: Answer, from: number): void {
    if (!ok && !this.excused(from)) this.ledger.violation(this.name, what, answer);
  }

  /** Its session went without a word and will not come back: its panes must go when the server notices. */
  abandoned(): void {
    // HTTP: the idle expiry and its sweep; stdio (SIGKILLed): the next server's reaping, and on the
    // lab host the lease (--host-lease) and the next renewal of another server's link.
    const grace = this.via === "http" ? this.fleet.idleMs * 1.25 + 10_000 : 45_000;
    this.leaks.expectGone(this.instance, grace, `${this.name}'s ${this.via} session, dropped without a word`);
    this.panes = [];
    this.instance = null;
  }

  forget(pane: PaneRec): void {
    this.panes = this.panes.filter((p) => p !== pane);
  }

  pick(kind: PaneRec["kind"]): PaneRec | undefined {
    const matching = this.panes.filter((p) => p.kind === kind);
    return matching.length === 0 ? undefined : this.rng.pick(matching);
  }

  /**
   * A pane a call made; `calledAt` is when that call began: a fault after it may have met the pane
   * on its way (made on a host's tmux server just before that server was restarted).
   */
  add(json: Record<string, unknown>, kind: PaneRec["kind"], host: string | null, calledAt: number): PaneRec {
    const pane: PaneRec = {
      id: String(json.pane_id),
      kind,
      born: calledAt,
      host,
      window: typeof json.window_id === "string" ? json.window_id : null,
    };
    this.panes.push(pane);
    return pane;
  }

  /** The owner instance of this session's panes (read from tmux), so its leftovers can be found after it ends. */
  async #learnInstance(paneId: unknown): Promise<void> {
    if (typeof paneId !== "string" || !/^%\d+$/.test(paneId)) return;
    const out = await this.fleet.tmux("display-message", "-p", "-t", paneId, "#{@tmuxwright_instance}");
    const instance = out.stdout.trim();
    if (out.code === 0 && instance) this.instance = instance;
  }
}
