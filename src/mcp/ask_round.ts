import { type CallToolResult, inputRequired, type RequestStateCodec, type ServerContext } from "./sdk.ts";
import type { Answer, Ask, Question } from "../engine/policy/mod.ts";
import { ToolError } from "../engine/errors.ts";
import { digest } from "./process_key.ts";
import { askForm } from "./ask.ts";

/** The key of the person's answer in `inputRequests` / `inputResponses`. */
export const POLICY_INPUT = "policy";

type Choice = Answer["choice"];

/**
 * What a 2026-era call carries between its rounds, sealed by the process key (the SDK's HMAC
 * codec; verified before the handler runs): the call it belongs to, who made it, the answers so
 * far, and the question the last round asked. The client can read it, never alter it.
 */
export interface AskState {
  v: 1;
  /** The tool, its arguments' digest, and the caller's binding (principal and workspace, or connection). */
  tool: string;
  args: string;
  who: string;
  answers: { q: string; choice: Choice }[];
  /** The digest of the question the last round asked. */
  pending: string;
}

/** Thrown by a 2026-era `ask` whose question has no answer yet: the call answers `input_required`. */
export class InputNeeded extends Error {
  constructor(readonly question: Question, readonly key: string) {
    super("the command policy asks the person first");
  }
}

/**
 * The policy's question in the 2026 era (docs/design/mcp_2026.md): a call's first round asks by
 * returning `input_required`; its retry brings the answer with the sealed state. The answer is
 * used only for the same tool, the same arguments, the same caller and the same question.
 */
export class AskRound {
  private constructor(
    private readonly codec: RequestStateCodec<AskState>,
    private readonly base: Omit<AskState, "answers" | "pending">,
    private readonly answers: { q: string; choice: Choice }[],
    private readonly by: string,
  ) {}

  /** The round of this request; a sealed state that belongs to another call is refused. */
  static async open(
    codec: RequestStateCodec<AskState>,
    ctx: ServerContext,
    call: { tool: string; args: Record<string, unknown>; who: string; by: string },
  ): Promise<AskRound> {
    const base = { v: 1 as const, tool: call.tool, args: await digest(canonical(call.args)), who: call.who };
    const state = ctx.mcpReq.requestState<AskState>();
    if (state === undefined) return new AskRound(codec, base, [], call.by);
    if (state.v !== 1 || state.tool !== base.tool || state.args !== base.args || state.who !== base.who) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `The requestState belongs to another call (another tool, other arguments or another caller)`,
        "Retry the call exactly as first made, or make it again without requestState.",
      );
    }
    const answered = answerOf(ctx.mcpReq.inputResponses?.[POLICY_INPUT]);
    return new AskRound(codec, base, [...state.answers, { q: state.pending, choice: answered }], call.by);
  }

  /** The gate's `ask` for this round: an answer already given, else InputNeeded. */
  ask(): Ask {
    return async (question: Question): Promise<Answer> => {
      const key = await questionKey(question);
      const found = this.answers.find((answer) => answer.q === key);
      if (found) return { choice: found.choice, by: this.by };
      throw new InputNeeded(question, key);
    };
  }

  /** The `input_required` answer to a round whose question is still open. */
  async inputRequired(needed: InputNeeded): Promise<CallToolResult> {
    const state: AskState = { ...this.base, answers: this.answers, pending: needed.key };
    return inputRequired({
      inputRequests: { [POLICY_INPUT]: inputRequired.elicit(askForm(needed.question)) },
      requestState: await this.codec.mint(state),
    }) as unknown as CallToolResult;
  }
}

/** The person's choice from an elicitation response; anything else (missing, malformed) is no consent. */
function answerOf(response: unknown): Choice {
  const entry = response as { action?: unknown; content?: { decision?: unknown } } | undefined;
  if (entry?.action === "decline") return "refuse";
  const decision = entry?.action === "accept" ? entry.content?.decision : undefined;
  return decision === "once" || decision === "session" || decision === "refuse" ? decision : "cancel";
}

/** A question is the same question when its command, pane, host and tool are. */
function questionKey(q: Question): Promise<string> {
  return digest(JSON.stringify([q.tool, q.host, q.pane, q.command]));
}

/** Arguments as one string independent of key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
