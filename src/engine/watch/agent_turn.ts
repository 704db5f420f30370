import type { PaneInfo, Paster } from "../panes/mod.ts";
import type { PolicyGate } from "../policy/mod.ts";
import { type AgentInPane, type AgentLook, ClaudeEvents, echoes, type HookRecord, lookAtAgent } from "../agents/mod.ts";
import { runWait, type WaitEnd, type WaitOptions } from "./wait_loop.ts";
import { endsOf, visibleLines, type WaitDeps, withoutDeadLine } from "./wait_output.ts";
import { AgentBytes } from "./agent_bytes.ts";
import { TurnQuestions } from "./agent_question.ts";
import { Looks } from "./agent_looks.ts";

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

/** Enter goes this long after the paste at the latest when the CLI shows nothing of it. */
const PASTE_SHOWN_MS = 1000;
/** An Enter the CLI did not submit on (its input still in its box) is pressed again, at most this often… */
const ENTER_RETRIES = 2;
/** …once it has had this long to read the Enter. */
const ENTER_SETTLE_MS = 300;
/** A turn its screen shows over waits this long for Claude Code's Stop hook, which carries the whole reply. */
const STOP_HOOK_MS = 1500;

/**
 * One turn of an agent CLI: wait until it waits for its person (a turn in progress ends first),
 * paste the input and press Enter once the CLI shows it, then wait until the turn ends as the CLI
 * says it — Claude Code's Stop hook, the working title of Codex and Gemini, its screen's working
 * indicator gone and input box back — or stops on a question to its person. `input` null: the turn
 * in progress, or the last one, is waited for and read. No end here is an idle timer.
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
  const { cli, pid } = agent;
  const first = await lookAtAgent(tmux, pane.paneId, agent);
  const questions = await TurnQuestions.open(tmux, pane.paneId, cli.questionSettleMs ?? 0);
  if (input !== null) {
    await deps.gate?.checkTyping(pane, tmux.host, [{ text: input, bracketed: true }, { key: "Enter" }]);
  }
  // Its hooks, once it is seen to have them (a session just started may not have run its first hook yet).
  let hooked = first.hooked && events !== null;
  const before = events ? await events.read(pid, "prompt") : null;
  let prompt: unknown = input === null ? before?.prompt_id : undefined; // the prompt id of the turn waited for
  let stop: HookRecord | null = null;
  let phase: "waiting" | "pasting" | "sent" = input === null ? "sent" : "waiting";
  let started = false; // the CLI said it works on this turn (after Enter)
  let beforeText = cli.reply(first.lines).text; // the last reply on screen before this turn's Enter
  const bytes = new AgentBytes();
  const looks = new Looks(tmux, pane.paneId, agent, first, () => bytes.inFrame);

  const end = await runWait<"ended" | "asking">(options, async (finish) => {
    let pasteShown: (() => void) | null = null;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let graceOver = false;
    let retries = 0;
    let enterAt = Infinity;
    const pressEnter = async () => {
      enterAt = Infinity; // no second Enter before this one has had its time
      if (cli.enterDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, cli.enterDelayMs));
      if (looks.closed) return;
      phase = "sent";
      enterAt = performance.now();
      await tmux.run("send-keys", "-t", pane.paneId, "Enter");
      looks.soon();
    };
    const send = async () => {
      phase = "pasting";
      const shown = new Promise<void>((resolve) => pasteShown = resolve);
      await deps.paster.paste(pane.paneId, input!, { bracketed: true, enter: false });
      await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, PASTE_SHOWN_MS))]);
      await pressEnter();
    };
    looks.decide = (view: AgentLook) => {
      if (view.activity === "asking") {
        const verdict = questions.judge(view.question);
        if (verdict.kind === "later") return looks.at(verdict.at);
        if (phase !== "pasting") return finish("asking");
      }
      if (phase === "waiting" && ready(view)) {
        beforeText = cli.reply(looks.turn(view)).text;
        return void send().catch(() => {}); // a failed paste: the deadline ends it
      }
      if (phase !== "sent") return;
      if (view.activity === "working") started = true;
      const settled = performance.now() - enterAt > ENTER_SETTLE_MS; // the Enter had time to be read
      if (!started && input !== null && retries < ENTER_RETRIES && settled && cli.inputLeft?.(view.lines)) {
        retries++;
        return void pressEnter().catch(() => {});
      }
      if (stop !== null) return finish("ended"); // Claude Code's Stop hook: the turn is over (its hooks may still run)
      const shown = cli.reply(looks.turn(view));
      // Its title may say it works before its screen shows the turn, stop spinning for a moment, and
      // spin on while the screen draws the reply: the screen must show this turn (its input's echo)
      // and, where the CLI draws one, the turn's own end line (under a reply other than the last).
      const quiet = view.screen.activity === "idle" && (view.signal !== "working" || shown.ended);
      const ours = input === null || echoes(shown.echo, input);
      const ended = cli.endLine ? shown.ended && (started || shown.text !== beforeText) : started;
      const over = quiet && ours && ((input === null && first.activity === "idle") || ended);
      if (!over) {
        clearTimeout(graceTimer);
        graceTimer = undefined;
        return void (graceOver = false);
      }
      if (!hooked || graceOver) return finish("ended");
      // It has hooks but its Stop hook has not come: it may be late; after a while the screen decides.
      graceTimer ??= setTimeout(() => {
        graceOver = true;
        looks.soon();
      }, STOP_HOOK_MS);
    };
    const onHook = async () => {
      const latest = await events!.read(pid, "prompt");
      if (phase === "sent" && prompt === undefined && latest && latest.prompt_id !== before?.prompt_id) {
        prompt = latest.prompt_id;
        hooked = true;
      }
      const stopped = prompt === undefined ? null : await events!.read(pid, "stop");
      if (stopped && stopped.prompt_id === prompt) stop = stopped;
      looks.soon();
    };
    const subscription = await deps.output.subscribe(pane, (chunk) => {
      if (pasteShown && phase === "pasting") pasteShown();
      if (bytes.push(chunk, cli).includes("working") && phase === "sent") started = true;
      looks.soon();
    }, { borrow: true });
    const unwatch = events?.watch(pid, () => void onHook().catch(() => {}));
    if (events) await onHook();
    looks.start();
    return () => {
      looks.close();
      clearTimeout(graceTimer);
      unwatch?.();
      subscription.close();
    };
  }, endsOf(deps, pane, () => null));

  const result = (rest: Partial<AgentTurn>): AgentTurn => ({
    end,
    reply: "",
    from: "screen",
    cut: false,
    question: null,
    sent: input !== null && phase === "sent",
    ...rest,
  });
  if (end.kind === "exited") {
    const shown = withoutDeadLine(await visibleLines(tmux, pane.paneId).catch(() => []));
    return result({ lastLines: shown.slice(-20) });
  }
  if (end.kind === "done" && end.value === "asking") {
    await TurnQuestions.returned(tmux, pane.paneId, looks.last.question);
    return result({ question: looks.last.question });
  }
  const message = (stop as HookRecord | null)?.last_assistant_message; // set by the hooks' watcher
  if (end.kind === "done" && typeof message === "string") return result({ reply: message, from: "hooks" });
  const shown = cli.reply(looks.turn(await looks.fresh()));
  return result({ reply: shown.text, cut: shown.echo === null });
}

/** Input goes only to a CLI whose screen shows its input box, idle, and whose own signal does not say otherwise. */
function ready(view: AgentLook): boolean {
  return view.screen.activity === "idle" && (view.signal === null || view.signal === "idle");
}
