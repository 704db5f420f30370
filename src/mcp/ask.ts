import type { McpServer, ServerContext } from "./sdk.ts";
import type { Answer, Ask, Question } from "../engine/policy/mod.ts";

/** A person may take a while to read the question. */
const ASK_TIMEOUT_MS = 10 * 60_000;
const CHOICES = ["once", "session", "refuse"] as const;
const CHOICE_TITLES = ["Run it once", "Allow it for the rest of this MCP session", "Refuse"];

/** The form the person answers, in both eras: the question and the three choices. */
export function askForm(question: Question) {
  return {
    mode: "form" as const,
    message: questionText(question),
    requestedSchema: {
      type: "object" as const,
      properties: {
        // `enum` with `enumNames`: understood by clients of every protocol version so far.
        decision: { type: "string" as const, title: "Run this command?", enum: [...CHOICES], enumNames: CHOICE_TITLES },
      },
      required: ["decision"],
    },
  };
}

/** Who answered, as the audit names them: the client, and its MCP session or workspace. */
export function answeredBy(client: { name?: string; version?: string } | undefined, where: string | null): string {
  return `${client?.name ?? "client"}${client?.version ? ` ${client.version}` : ""}` + (where ? ` (${where})` : "");
}

/**
 * The command policy's `ask` in the 2025 era, through MCP elicitation to the client that made the
 * call (over HTTP, that MCP session, on the call's own stream). Null when that client declared no
 * form elicitation.
 */
export function askThrough(server: McpServer, ctx: ServerContext): Ask | null {
  if (!server.server.getClientCapabilities()?.elicitation?.form) return null;
  const by = answeredBy(server.server.getClientVersion(), ctx.sessionId ? `MCP session ${ctx.sessionId}` : null);
  return async (question: Question): Promise<Answer> => {
    try {
      const result = await server.server.elicitInput(askForm(question), {
        relatedRequestId: ctx.mcpReq.id,
        signal: ctx.mcpReq.signal,
        timeout: ASK_TIMEOUT_MS,
      });
      if (result.action === "decline") return { choice: "refuse", by };
      const decision = result.action === "accept" ? result.content?.decision : undefined;
      return {
        choice: decision === "once" || decision === "session" || decision === "refuse" ? decision : "cancel",
        by,
      };
    } catch {
      return { choice: "cancel", by }; // no answer (timed out, cancelled, connection gone) is no consent
    }
  };
}

function questionText(q: Question): string {
  const rule = q.judgement.rule === null
    ? "it cannot be judged exactly"
    : q.judgement.rule === "default"
    ? "no rule names it and the policy's default is ask"
    : `rule "${q.judgement.rule}" says ask`;
  // The command right below the first line: Claude Code's form shows a question's first three lines.
  return [
    `An agent wants to run a command (${q.tool}) that the command policy asks you about: ${rule}.`,
    `Command:\n${shownCommand(q.command)}`,
    "",
    `Pane: ${q.pane ?? "a new pane"} on host ${q.host}`,
    `Why: ${q.judgement.reason}${q.judgement.command !== q.command ? ` (\`${q.judgement.command}\`)` : ""}`,
  ].join("\n");
}

const SHOWN_CHARS = 4000;

/**
 * The command as the person reads it: each line indented (a line of the command cannot pass for
 * a line of the question), control characters as `\xNN` (no escape sequence reaches a terminal),
 * cut at 4,000 characters.
 */
export function shownCommand(command: string): string {
  const cut = command.length > SHOWN_CHARS
    ? `${command.slice(0, SHOWN_CHARS)}… (${command.length} characters)`
    : command;
  const visible = cut.replace(
    // deno-lint-ignore no-control-regex
    /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return visible.split("\n").map((line) => `    ${line}`).join("\n");
}
