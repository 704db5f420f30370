import type { PaneInfo, Paster } from "../panes/mod.ts";
import type { PolicyGate } from "../policy/mod.ts";
import { type AgentInPane, type AgentLook, ClaudeEvents, type HookRecord, lookAtAgent } from "../agents/mod.ts";
import { runWait, type WaitEnd, type WaitOptions } from "./wait_loop.ts";
import { endsOf, visibleLines, type WaitDeps, withoutDeadLine } from "./wait_output.ts";
import { TitleScanner } from "./agent_titles.ts";

/** What an agent CLI's turn needs: the wait dependencies, the guarded paste, the policy. */
export interface AgentTurnDeps extends WaitDeps {
  paster: Paster;
  gate?: PolicyGate;
}

export interface AgentTurn {
  /** `ended`: the turn is over, the CLI waits for its person; `asking`: it asks its person (a permission, a choice). */
  end: WaitEnd<"ended" | "asking">;
  /** The turn's last message (on a timeout: what the screen shows of the turn so far). */
  reply: string;
  /** Where the reply comes from: Claude Code's Stop hook (the whole message), or the screen (as drawn). */
  from: "hooks" | "screen";
  /** The screen no longer shows the turn's start: `reply` is its end. */
  cut: boolean;
  /** With `asking`: the question and its choices, as the screen shows them. */
  question: string | null;
  /** The input was sent (not when a question was already open). */
  sent: boolean;
  lastLines?: string[];
}

/** Looks caused by output: at most one per this many ms (spinners redraw ten times a second). */
const LOOK_GAP_MS = 30;
/** A look anyway this often: a hook's option or a title can change with nothing else drawn. */
const RECHECK_MS = 250;
/** Scrollback rows a look reads on the normal screen (a turn longer than a screen scrolls into it). */
const HISTORY_ROWS = 2000;
/** Enter goes this long after the paste at the latest when the CLI shows nothing of it. */
const PASTE_SHOWN_MS = 1000;
/** An Enter the CLI took as a newline is taken back and pressed again, at most this often. */
const ENTER_RETRIES = 2;
/** …once it has had this long to read the Enter. */
const ENTER_SETTLE_MS = 300;
/** A turn its screen shows over waits this long for Claude Code's Stop hook, which carries the whole reply. */
const STOP_HOOK_MS = 1500;

/**
 * One turn of an agent CLI: wait until it waits for its person (a turn in progress ends first),
 * paste the input and press Enter once the CLI shows it, then wait until the turn ends as the CLI
 * shows it — its own signal (Claude Code's Stop hook, the working title of Codex and Gemini) and
 * its screen (working indicator gone, input box back) — or stops on a question to its person.
 * `input` null: the turn in progress, or the last one, is waited for and read. Nothing here is an
 * idle timer: every end is something the CLI drew or said.
 */
export async function runAgentTurn(
  deps: AgentTurnDeps,
  pane: PaneInfo,
  agent: AgentInPane,
  input: string | null,
  events: ClaudeEvents | null,
  options: WaitOptions,
): Promise<AgentTurn> {
  const { tmux } = deps;
  const first = await lookAtAgent(tmux, pane.paneId, agent);
  // Its hooks, once it is seen to have them (a session just started may not have run its first hook yet).
  let hooked = first.hooked && events !== null;
  const top = first.firstRow; // the screen's top row when the turn began: the turn is below it
  let phase: "waiting" | "pasting" | "sent" = input === null ? "sent" : ready(first) ? "pasting" : "waiting";
  const result = (end: AgentTurn["end"], rest: Partial<AgentTurn>): AgentTurn => ({
    end,
    reply: "",
    from: "screen",
    cut: false,
    question: null,
    sent: input !== null && phase === "sent",
    ...rest,
  });
  // A question this tool already returned, still on screen: answered a moment ago (send_keys), not redrawn yet.
  let answered = first.activity === "asking" && await alreadyAsked(tmux, pane.paneId, first.question);
  if (first.activity === "asking" && !answered) {
    await markAsked(tmux, pane.paneId, first.question);
    return result({ kind: "done", value: "asking", elapsedMs: 0 }, { question: first.question, sent: false });
  }
  if (input !== null) {
    await deps.gate?.checkTyping(pane, tmux.host, [{ text: input, bracketed: true }, { key: "Enter" }]);
  }
  const before = events ? await events.read(agent.pid, "prompt") : null;
  let prompt: unknown = input === null ? before?.prompt_id : undefined; // the prompt id of the turn waited for
  let stop: HookRecord | null = null;
  let started = false; // the CLI said it works on this turn (after Enter)
  let look: AgentLook = first;
  const transcript = (view: AgentLook) => view.lines.slice(Math.max(0, top - view.firstRow));
  const beforeText = agent.cli.reply(transcript(first)).text;
  const titles = new TitleScanner();
  let pasteShown: (() => void) | null = null;

  const end = await runWait<"ended" | "asking">(options, async (finish) => {
    let closed = false;
    let looking = false;
    let again = false;
    let lastLook = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let graceOver = false;
    let retries = 0;
    let enterAt = Infinity;
    const newline = (view: AgentLook) => agent.cli.newlineInBox?.(view.lines, view.cursor) === true;
    const decide = (view: AgentLook) => {
      if (view.activity !== "asking") answered = false;
      else if (answered) return; // the answered question, not redrawn yet
      if (phase === "waiting" && ready(view)) return void send();
      if (phase !== "sent") return;
      if (view.activity === "working") started = true;
      const settled = performance.now() - enterAt > ENTER_SETTLE_MS; // the Enter had time to be read
      if (!started && input !== null && retries < ENTER_RETRIES && settled && newline(view)) {
        retries++;
        return void pressEnter(["BSpace"]);
      }
      if (view.activity === "asking" && view.question !== null) return finish("asking");
      if (stop !== null) return finish("ended"); // Claude Code's Stop hook: the turn is over (its hooks may still run)
      const shown = agent.cli.reply(transcript(view));
      // Without a working signal seen (a turn faster than a look), the turn's own end line after a new echo.
      const over = view.activity === "idle" &&
        (started || (input === null && first.activity === "idle") || (shown.ended && shown.text !== beforeText));
      if (!over) {
        clearTimeout(graceTimer);
        graceTimer = undefined;
        return void (graceOver = false);
      }
      if (!hooked || graceOver) return finish("ended");
      // It has hooks but the Stop hook has not come: it may be late; after a while the screen decides.
      graceTimer ??= setTimeout(() => {
        graceOver = true;
        void lookNow();
      }, STOP_HOOK_MS);
    };
    const lookNow = async () => {
      if (looking) return void (again = true);
      looking = true;
      lastLook = performance.now();
      try {
        look = await lookAtAgent(tmux, pane.paneId, agent, look.alternate ? 0 : HISTORY_ROWS);
        if (!closed) decide(look);
      } catch {
        /* the pane's end ends the wait */
      } finally {
        looking = false;
        if (again && !closed) {
          again = false;
          schedule();
        }
      }
    };
    const schedule = () => {
      if (closed || timer !== undefined) return;
      const wait = Math.max(0, LOOK_GAP_MS - (performance.now() - lastLook));
      timer = setTimeout(() => {
        timer = undefined;
        void lookNow();
      }, wait);
    };
    const send = async () => {
      phase = "pasting";
      const shown = new Promise<void>((resolve) => pasteShown = resolve);
      await deps.paster.paste(pane.paneId, input!, { bracketed: true, enter: false });
      await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, PASTE_SHOWN_MS))]);
      await pressEnter([]);
    };
    /** Enter, after the CLI's delay (and after `before`: a newline it took for Enter, taken back). */
    const pressEnter = async (before: string[]) => {
      for (const key of before) await tmux.run("send-keys", "-t", pane.paneId, key);
      if (agent.cli.enterDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, agent.cli.enterDelayMs));
      if (closed) return;
      phase = "sent";
      enterAt = performance.now();
      await tmux.run("send-keys", "-t", pane.paneId, "Enter");
      schedule();
    };
    const onHook = async () => {
      const latest = await events!.read(agent.pid, "prompt");
      if (phase === "sent" && prompt === undefined && latest && latest.prompt_id !== before?.prompt_id) {
        prompt = latest.prompt_id;
        hooked = true;
      }
      const stopped = prompt === undefined ? null : await events!.read(agent.pid, "stop");
      if (stopped && stopped.prompt_id === prompt) stop = stopped;
      schedule();
    };
    const subscription = await deps.output.subscribe(pane, (bytes) => {
      if (pasteShown && phase === "pasting") pasteShown();
      const said = titles.push(bytes, agent.cli);
      if (phase === "sent" && said.includes("working")) started = true;
      schedule();
    }, { borrow: true });
    const unwatch = events?.watch(agent.pid, () => void onHook().catch(() => {}));
    if (events) await onHook();
    const recheck = setInterval(() => void lookNow(), RECHECK_MS);
    if (phase === "pasting") void send().catch(() => {}); // a paste that fails ends nothing: the deadline does
    else schedule();
    return () => {
      closed = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      clearInterval(recheck);
      unwatch?.();
      subscription.close();
    };
  }, endsOf(deps, pane, () => null));

  if (end.kind === "exited") {
    const shown = withoutDeadLine(await visibleLines(tmux, pane.paneId).catch(() => []));
    return result(end, { lastLines: shown.slice(-20) });
  }
  if (end.kind === "done" && end.value === "asking") {
    await markAsked(tmux, pane.paneId, look.question);
    return result(end, { question: look.question });
  }
  const message = (stop as HookRecord | null)?.last_assistant_message; // set by the hooks' watcher
  if (end.kind === "done" && typeof message === "string") return result(end, { reply: message, from: "hooks" });
  const last = await lookAtAgent(tmux, pane.paneId, agent, look.alternate ? 0 : HISTORY_ROWS).catch(() => look);
  const shown = agent.cli.reply(transcript(last));
  return result(end, { reply: shown.text, cut: !shown.echo });
}

/** Input goes only to a CLI whose screen shows its input box, idle, and whose own signal does not say otherwise. */
function ready(view: AgentLook): boolean {
  return view.screen.activity === "idle" && (view.signal === null || view.signal === "idle");
}

/** The pane option naming the last question a turn returned (a hash): it is not returned twice. */
const ASKED_OPTION = "@tmuxwright_asked";

function questionHash(question: string | null): string {
  let hash = 0x811c9dc5; // FNV-1a
  for (const char of question ?? "") hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return hash.toString(16);
}

async function alreadyAsked(tmux: AgentTurnDeps["tmux"], paneId: string, question: string | null): Promise<boolean> {
  const [value] = await tmux.run("display-message", "-p", "-t", paneId, `#{${ASKED_OPTION}}`).catch(() => [""]);
  return value === questionHash(question);
}

async function markAsked(tmux: AgentTurnDeps["tmux"], paneId: string, question: string | null): Promise<void> {
  await tmux.run("set-option", "-p", "-t", paneId, ASKED_OPTION, questionHash(question)).catch(() => {});
}
