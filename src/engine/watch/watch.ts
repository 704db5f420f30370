import type { PaneInfo } from "../panes/mod.ts";
import {
  atShellPrompt,
  type Look,
  type PaneProcess,
  processExists,
  readProcState,
  waitsOnPerson,
} from "../facts/mod.ts";
import { endsOf, type PaneScan, scanPane, visibleLines, type WaitDeps, withoutDeadLine } from "./wait_output.ts";
import { deadStatus, finalState } from "./pane_end.ts";
import { runWait, type WaitOptions } from "./wait_loop.ts";
import { BellDetector, ERROR_TEST, type Trigger } from "./triggers.ts";
import { firstMatch, type FoundLine } from "./chunk_match.ts";
import { MarkReader } from "../integration/mod.ts";
import { promptMarkDue } from "./prompt_due.ts";
import { logSize } from "../output/mod.ts";
import type { ServerEvents } from "../events/mod.ts";

/** A watch also publishes the trigger that fired on the server's event stream. */
export interface WatchDeps extends WaitDeps {
  events: ServerEvents;
}

/** State re-check when nothing else prompts one (a process silently starts waiting for input). */
export const SAFETY_RECHECK_MS = 250;
/** A state seen at the start holds only after this much quiet (the keys just sent may not be read yet). */
export const SETTLE_MS = 100;
/**
 * After a line typed into an integrated shell, its next prompt mark says it is back: the shell
 * seen at its prompt before that only means it has not read the line yet (a loaded machine, a
 * host's link). Only this much quiet without a mark lets the look decide.
 */
export const LINE_MARK_GRACE_MS = 2_000;
/** Re-checks triggered by output are coalesced to at most one per this interval. */
// A state check looks at the processes through tmux (a few ms of process starts): at most ten a second.
const OUTPUT_RECHECK_MS = 100;
/** Control-mode notifications that can mean a pane's process ended. */
const STATE_NOTIFICATIONS = new Set(["%window-close", "%unlinked-window-close", "%layout-change", "%exit"]);

export interface WatchResult {
  /** The trigger that fired, or "timeout". */
  trigger: string;
  /** The line that fired a pattern/error trigger. */
  line?: string;
  /** A state trigger (exit, shell, input) whose state already held when the call began. */
  already?: true;
  /** With `exit`: the exit status of the process the pane was started for (null: not reported). */
  exitCode?: number | null;
  /** The pane's own program ended (the pane is dead): the signal that ended it, if one did. */
  paneExit?: { signal: number | null; lastLines: string[] };
  elapsedMs: number;
  output: string;
  outputTruncated: boolean;
  /** The output's last line is unfinished (at a `shell` trigger: the prompt). */
  unfinishedLast: boolean;
  state: PaneProcess & { gone: boolean };
}

interface Fired {
  trigger: string;
  line?: string;
  already?: true;
  exitCode?: number | null;
  /** Fired by the shell's own prompt mark: it lives and waits at its prompt. */
  marked?: true;
}

/**
 * Watches a pane until the first trigger fires. Output triggers are tested on every chunk;
 * state triggers (exit/shell/input) are re-checked once output has been quiet for SETTLE_MS, on
 * tmux notifications that can mean a pane closed, and every SAFETY_RECHECK_MS while quiet, for
 * state that produces no output.
 */
export async function watchPane(
  deps: WatchDeps,
  pane: PaneInfo,
  triggers: readonly Trigger[],
  options: WaitOptions & {
    origin?: string;
    /** Sends input once the watch listens (send_keys with wait): what it causes cannot be missed. */
    act?: () => Promise<void>;
    /** The first lines are the echo of what `act` types: not output, never matched. */
    skipLines?: number;
    /** `act` ends a line (Enter, a pasted newline): a shell at its prompt will draw its prompt again. */
    endsLine?: boolean;
    /** The caller reports the pane's state only on a timeout: a shell seen back at its prompt is not asked again. */
    stateOnTimeout?: boolean;
  },
): Promise<WatchResult> {
  let scan: PaneScan | null = null;
  const end = await runWait<Fired>(options, async (finish) => {
    const started = performance.now();
    let lastOutput = started;
    let done = false;
    const fire = (fired: Fired) => {
      done = true;
      finish(fired);
    };
    const has = (kind: Trigger["kind"]) => triggers.some((t) => t.kind === kind);
    const stateful = has("exit") || has("shell") || has("input");
    const seenFalse = { exit: false, shell: false, input: false };
    let exitHeldAtStart = false;
    let idleAtStart = false;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (fn: () => void, ms: number) => {
      const id = setTimeout(() => {
        timers.delete(id);
        fn();
      }, ms);
      timers.add(id);
    };

    let checking = false;
    let again = false;
    let lastCheck = 0;
    let pendingCheck = false;
    let unreaped = 0;
    const check = async () => {
      if (checking) return void (again = true);
      checking = true;
      try {
        do {
          again = false;
          lastCheck = performance.now();
          // A failed read (tmux reconnecting) must not end the server: the next re-check tries again.
          await evaluate().catch(() => {});
        } while (again && !done);
      } finally {
        checking = false;
      }
    };
    // While output flows the program is neither at a prompt nor waiting for input, and its exit
    // ends the flow: state is checked once output has been quiet for SETTLE_MS.
    let quietTimer: ReturnType<typeof setTimeout> | undefined;
    const checkWhenQuiet = () => {
      if (!stateful || done) return;
      clearTimeout(quietTimer);
      quietTimer = setTimeout(() => void check(), SETTLE_MS);
    };
    const requestCheck = () => {
      if (!stateful || done || pendingCheck) return;
      const wait = Math.max(0, lastCheck + OUTPUT_RECHECK_MS - performance.now());
      pendingCheck = true;
      later(() => {
        pendingCheck = false;
        void check();
      }, wait);
    };

    // The command the pane was last started for (execute_command, start_process): `exit` is its
    // exit. One that had already ended counts only while the pane stays silent at its prompt:
    // any output means something newer runs there.
    const job = has("exit") ? deps.jobs?.current(pane.paneId) ?? null : null;
    const jobExit = () => job?.exit ?? null; // read fresh: it changes while the watch runs
    const jobEndedBefore = jobExit() !== null;
    let outputSeen = false;
    job?.whenEnded().then(() => void check());
    let firstCheck = true;

    const evaluate = async () => {
      if (done) return;
      const isFirst = firstCheck;
      firstCheck = false;
      // tmux's own answer first: a look at the processes costs process starts and is moot for a dead pane.
      const dead = has("exit") ? await deadStatus(deps, pane.paneId) : { kind: "alive" as const, code: null };
      if (dead.kind === "gone" && deps.paneEnds) return; // PaneEnds says who removed it (PANE_GONE)
      const ended = jobExit();
      if (ended !== null && !jobEndedBefore) return fire({ trigger: "exit", exitCode: ended.code });
      const needsProc = stateful && dead.kind === "alive" && pane.pid !== null;
      // `input` may need the terminal's modes: where the OS cannot tell, a raw terminal under a question counts.
      const look: Look | null = needsProc ? await deps.proc.look(pane.pid!, { terminal: has("input") }) : null;
      if (
        dead.kind !== "alive" ||
        (has("exit") && pane.pid !== null && look !== null && processExists(look, pane.pid) === false)
      ) {
        // Its process gone while tmux said alive: the pane may have been removed in between (PANE_GONE).
        if (dead.kind === "alive" && deps.paneEnds && (await deadStatus(deps, pane.paneId)).kind === "gone") return;
        if (isFirst) exitHeldAtStart = true;
        // tmux can mark a pane dead a moment before it has reaped the process and knows the status;
        // "alive" here means the process ended while something else still holds the terminal.
        if (dead.kind !== "dead-unreaped" || ++unreaped > 25) {
          return fire({ trigger: "exit", exitCode: dead.code, ...(exitHeldAtStart ? { already: true } : {}) });
        }
        // A missed SIGCHLD can leave it unreaped: a no-op job makes tmux reap every exited child.
        if (dead.kind === "dead-unreaped") await deps.tmux.oneShot("run-shell", ":").catch(() => {});
        return later(() => void check(), 20);
      }
      if (pane.pid === null || look === null || processExists(look, pane.pid) !== true) return;
      const proc = readProcState(look, pane.pid);
      const quietFor = performance.now() - lastOutput;
      const settleLater = (settle = SETTLE_MS) => later(() => void check(), settle - quietFor + 5);
      for (const t of triggers) {
        if (t.kind === "exit" && job?.started) {
          // The pane's own shell back at its prompt: the job has ended (after Ctrl-C the shell
          // drops the status), or, for a job that had ended before the call, still nothing newer runs.
          const idle = atShellPrompt(proc) && proc.fgPid === pane.pid && !(jobEndedBefore && outputSeen);
          if (isFirst) idleAtStart = idle;
          if (!idle) seenFalse.exit = true;
          else if (quietFor < SETTLE_MS) settleLater();
          else {
            const already = jobEndedBefore || (idleAtStart && !seenFalse.exit);
            return fire({ trigger: "exit", exitCode: jobExit()?.code ?? null, ...(already ? { already: true } : {}) });
          }
        }
        if (t.kind !== "shell" && t.kind !== "input") continue;
        const holds = t.kind === "shell"
          ? atShellPrompt(proc)
          : await waitsOnPerson(proc, () => cursorAfterText(deps, pane.paneId));
        const settle = t.kind === "shell" && awaitsPromptMark() ? LINE_MARK_GRACE_MS : SETTLE_MS;
        if (!holds) seenFalse[t.kind] = true;
        else if (seenFalse[t.kind] && settle === SETTLE_MS) return fire({ trigger: t.name });
        else if (quietFor >= settle) return fire({ trigger: t.name, already: true });
        else settleLater(settle);
      }
    };

    const bell = has("bell") ? new BellDetector() : null;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const idle = triggers.find((t) => t.kind === "idle");
    const armIdle = () => {
      if (!idle || idle.kind !== "idle") return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => fire({ trigger: idle.name }), idle.ms);
    };
    // Output triggers in their order: a text test, or one that fires on any (ringing) chunk.
    const textTriggers = triggers.flatMap((t, order) => {
      if (t.kind === "pattern") return [{ order, name: t.name, test: t.re }];
      return t.kind === "error" ? [{ order, name: t.name, test: ERROR_TEST }] : [];
    });

    // An integrated shell marks its prompt: its P mark is the shell back at its prompt, at once.
    const marks = pane.marks ? new MarkReader(pane.marks.nonce) : null;
    let ended: number | null = null;
    // A prompt mark on its way from before the typing (the log trails the terminal) is not the answer.
    let staleMarks = 0;
    // A continuation prompt (C) draws no P mark: the shell waits there for the rest of the line.
    let continued = false;
    const awaitsPromptMark = () => marks !== null && options.endsLine === true && !continued;
    // After a chunk's text tests found nothing: the instant triggers, then the quiet-time check.
    const rest = (instant: number) => {
      if (instant >= 0) return fire({ trigger: triggers[instant].name });
      checkWhenQuiet();
    };
    // Decided before listening, from the log up to where the scan begins.
    let fromOffset: number | undefined;
    if (marks && options.act && options.endsLine && has("shell") && deps.output.followsLog(pane)) {
      fromOffset = await logSize(pane.logPath!);
      staleMarks = await promptMarkDue(deps, pane, fromOffset) ? 1 : 0;
    }
    scan = await scanPane(deps, pane, (lines, bytes, scanner) => {
      if (done) return;
      for (const mark of marks?.push(bytes, 0) ?? []) {
        if (mark.kind === "E") ended = mark.status;
        if (mark.kind === "C") continued = true;
        if (mark.kind === "P" && mark.pid === pane.pid && has("shell")) {
          if (staleMarks > 0) {
            // Everything up to that prompt was before the input: the answer (and its echo) follow it.
            staleMarks--;
            ended = null;
            scanner.restart(options.skipLines ?? 0, bytes.subarray(Math.max(0, mark.end)));
            continue;
          }
          return fire({ trigger: "shell", marked: true, ...(ended === null ? {} : { exitCode: ended }) });
        }
      }
      lastOutput = performance.now();
      outputSeen = true;
      armIdle();
      const rang = bell?.push(bytes) ?? false; // before any await: `bytes` is only lent
      const instant = triggers.findIndex((t) => t.kind === "change" || (t.kind === "bell" && rang));
      const tests = textTriggers.filter((t) => instant < 0 || t.order < instant);
      if (tests.length === 0) return rest(instant);
      // A prompt keeps its trailing blanks: `name? `. Most chunks are ruled out at once (no promise).
      const found = firstMatch(tests.map((t) => t.test), lines.withPartial(scanner.partialForMatch));
      const decide = (hit: FoundLine | null) => {
        if (done) return;
        if (hit) return fire({ trigger: tests[hit.test].name, line: hit.line });
        rest(instant);
      };
      return found instanceof Promise ? found.then(decide) : decide(found);
    }, {
      echoGuard: !options.act,
      skipLines: options.skipLines,
      fromOffset,
      keepLines: 200,
      keepChars: 16_000,
      decode: textTriggers.length > 0,
    });

    if (options.act) {
      try {
        await options.act();
      } catch (error) {
        scan.close();
        throw error;
      }
      lastOutput = performance.now(); // quiet counts from the keys sent, not from before sending them
    }
    armIdle();
    const unlisten = deps.tmux.onNotification((name) => {
      if (STATE_NOTIFICATIONS.has(name)) requestCheck();
    });
    const safety = stateful
      ? setInterval(() => performance.now() - lastOutput >= SETTLE_MS && void check(), SAFETY_RECHECK_MS)
      : undefined;
    void check();
    const current = scan;
    return () => {
      done = true;
      current.close();
      unlisten();
      clearTimeout(idleTimer);
      clearTimeout(quietTimer);
      clearInterval(safety);
      for (const id of timers) clearTimeout(id);
    };
  }, endsOf(deps, pane, () => scan));
  const { text, truncated } = (scan as PaneScan | null)?.scanner.text() ?? { text: "", truncated: false };
  const unfinishedLast = ((scan as PaneScan | null)?.scanner.partial ?? null) !== null;
  const fired: Fired = end.kind === "done"
    ? end.value
    : end.kind === "exited"
    ? { trigger: "exit", exitCode: end.exit.exitCode, ...(end.exit.already ? { already: true } : {}) }
    : { trigger: end.kind === "timeout" ? "timeout" : "cancelled" };
  // Through a host's link a look at the pane is a round trip: not taken when the answer is known.
  const known = options.stateOnTimeout && fired.marked;
  const state = known
    ? { alive: true, exitCode: null, panePid: pane.pid, proc: null, gone: false }
    : await finalState(deps, pane);
  const paneExit = end.kind === "exited" || (fired.trigger === "exit" && !state.alive && !state.gone)
    ? {
      signal: end.kind === "exited" ? end.exit.signal : null,
      lastLines: withoutDeadLine(await visibleLines(deps.tmux, pane.paneId).catch(() => [])).slice(-20),
    }
    : undefined;
  if (end.kind === "done" || end.kind === "exited") {
    // The exit of the process the pane was started for, else the pane's own.
    const jobExit = "exitCode" in fired ? fired.exitCode : undefined;
    const exitCode = jobExit !== undefined ? jobExit : state.alive ? null : state.exitCode;
    deps.events.emit({
      kind: "trigger",
      source: "watch_pane",
      paneId: pane.paneId,
      paneName: pane.name,
      event: fired.trigger,
      detail: fired.line ?? describe(fired.trigger, exitCode),
      exitCode,
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    });
  }
  return {
    trigger: fired.trigger,
    ...(fired.line !== undefined ? { line: fired.line } : {}),
    ...("already" in fired && fired.already ? { already: true as const } : {}),
    ...("exitCode" in fired && fired.exitCode !== undefined ? { exitCode: fired.exitCode } : {}),
    elapsedMs: end.elapsedMs,
    output: text,
    outputTruncated: truncated,
    unfinishedLast,
    state,
    ...(paneExit ? { paneExit } : {}),
  };
}

/** A short sentence for a trigger that fired without a line of output. */
function describe(trigger: string, exitCode: number | null): string {
  if (trigger === "exit") return exitCode === null ? "the process ended" : `the process exited with status ${exitCode}`;
  if (trigger === "shell") return "back at the shell prompt";
  if (trigger === "input") return "the program waits for terminal input";
  if (trigger === "bell") return "the terminal bell rang";
  if (trigger === "change") return "new output";
  if (trigger.startsWith("idle:")) return `no output for ${trigger.slice(5)} s`;
  return trigger;
}

/** The cursor ends text on its line (a prompt, a question): tmux's cursor is past column 0. */
async function cursorAfterText(deps: WatchDeps, paneId: string): Promise<boolean> {
  const [x] = await deps.tmux.run("display-message", "-p", "-t", paneId, "#{cursor_x}").catch(() => [""]);
  return /^\d+$/.test(x ?? "") && Number(x) > 0;
}
