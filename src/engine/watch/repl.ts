import type { PaneInfo } from "../panes/mod.ts";
import { endsOf, type PaneScan, scanPane, visibleLines, type WaitDeps, withoutDeadLine } from "./wait_output.ts";
import { chunkLines } from "./line_scanner.ts";
import { MAX_MATCH_LINE_CHARS } from "./chunk_match.ts";
import { runWait, type WaitEnd, type WaitOptions } from "./wait_loop.ts";
import type { Paster } from "../panes/mod.ts";
import type { LineTest } from "./triggers.ts";
import { watchForQuestion } from "./repl_question.ts";
import type { PolicyGate } from "../policy/mod.ts";

/** What a REPL turn needs: the wait dependencies and the guarded paste for multi-line input. */
export interface ReplDeps extends WaitDeps {
  paster: Paster;
  /** The command policy: input to a shell at its prompt is a command line. */
  gate?: PolicyGate;
}

export interface ReplTurn {
  /**
   * `prompt`: the prompt came back; `more`: the REPL still asks for more input (a continuation
   * prompt); `input`: the REPL reads the terminal without its prompt (the input's `input()` asks).
   */
  end: WaitEnd<"prompt" | "more" | "input">;
  /** The output between the input's echo and the next prompt (on a timeout: what came so far). */
  output: string;
  /** When the REPL exited: the last lines its pane shows. */
  lastLines?: string[];
}

/**
 * Continuation prompts: python and node `... `, IPython `...: `, psql `db-# ` / `db(# ` / `db'# `.
 * Shown after the whole input was echoed, the REPL waits for the rest of a block or expression.
 */
const CONTINUATION = /^\s*(?:\.\.\.:?|[\w.-]*[-'"(][#>]) ?$/;

/**
 * One REPL turn: listen, send `input`, collect output until a line that matches `prompt` is the
 * unfinished last line after every input line has been echoed. Echo lines are recognised by
 * content (each ends with the next input line), so output printed between pasted statements
 * stays. One line is typed; several lines are pasted bracketed through a uniquely named buffer
 * (`Paster`: a unique buffer, pasted only into a live pane), so the REPL receives them whole.
 *
 * A continuation prompt after the whole input means an unfinished block: the empty line a
 * person would type is sent once (python ends `def` blocks so). A continuation prompt after that
 * empty line ends the turn at once with `more` (an open bracket, an unfinished expression): the
 * REPL keeps what it has, so the next turn can finish it.
 */
export async function runInRepl(
  deps: ReplDeps,
  pane: PaneInfo,
  input: string,
  prompt: LineTest,
  options: WaitOptions,
): Promise<ReplTurn> {
  const sent = input.endsWith("\n") ? input.slice(0, -1) : input;
  const inputLines = sent.split("\n").map((l) => l.trimEnd());
  await deps.gate?.checkTyping(pane, deps.tmux.host, [{ text: sent, bracketed: true }, { key: "Enter" }]);
  let echoed = 0;
  let completed = false;
  const output: string[] = [];
  let scan: PaneScan | null = null;
  let lastOutput = performance.now();
  let question = null as string | null;
  const end = await runWait<"prompt" | "more" | "input">(options, async (finish) => {
    scan = await scanPane(deps, pane, (lines, _bytes, scanner) => {
      lastOutput = performance.now();
      question = scanner.partialForMatch;
      for (const line of chunkLines(lines)) {
        if (echoed < inputLines.length && isEcho(line, inputLines[echoed])) echoed++;
        else output.push(line);
      }
      const last = scanner.partialForMatch;
      if (echoed < inputLines.length || last === null) return;
      // A prompt ends its line: a long line is tested on its end (bounded work per test).
      if (prompt.test(last.length > MAX_MATCH_LINE_CHARS ? last.slice(-MAX_MATCH_LINE_CHARS) : last)) {
        return finish("prompt");
      }
      if (!CONTINUATION.test(last)) return;
      if (completed) return finish("more");
      completed = true;
      inputLines.push(""); // its echo is a bare continuation prompt
      deps.tmux.run("send-keys", "-t", pane.paneId, "Enter").catch(() => {});
    }, { keepLines: 10 });
    await send(deps, pane.paneId, sent, inputLines.length > 1);
    const current = scan;
    const echoedWhole = () => echoed >= inputLines.length;
    const unfinished = () => (question ?? "").trim() !== "";
    const stop = watchForQuestion(deps, pane, () => lastOutput, echoedWhole, unfinished, () => finish("input"));
    return () => {
      stop();
      current.close();
    };
  }, endsOf(deps, pane, () => scan));
  if (end.kind === "done" && end.value === "input" && question) output.push(question.trimEnd());
  if (end.kind !== "exited") return { end, output: output.join("\n") };
  const shown = withoutDeadLine(await visibleLines(deps.tmux, pane.paneId).catch(() => []));
  return { end, output: output.join("\n"), lastLines: shown.slice(-20) };
}

/** An echo line shows the input line after a prompt; an empty input line shows a bare prompt. */
function isEcho(line: string, inputLine: string): boolean {
  const trimmed = line.trimEnd();
  if (inputLine.trim() === "") return trimmed.length <= 12 && !/\w/.test(trimmed);
  return trimmed.endsWith(inputLine.trimStart()) || trimmed.endsWith(inputLine);
}

async function send(deps: ReplDeps, paneId: string, text: string, multiLine: boolean): Promise<void> {
  if (!multiLine) {
    await deps.tmux.batch([
      ["send-keys", "-t", paneId, "-l", "--", text],
      ["send-keys", "-t", paneId, "Enter"],
    ]);
    return;
  }
  await deps.paster.paste(paneId, text + "\n", { bracketed: true, enter: false });
}
