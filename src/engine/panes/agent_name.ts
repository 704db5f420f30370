/**
 * Whose pane it is: the MCP client (`clientInfo` name, and title where given) of the connection
 * that created it, stored on the pane as the user option `@tmuxwright_agent` so every server on
 * that tmux server, and a remote host's fleet view, read the same name.
 */
export interface AgentName {
  name: string;
  title: string | null;
}

export const AGENT_OPTION = "@tmuxwright_agent";

/** A client's words are bounded and stripped of control characters before anything stores them. */
const MAX_CHARS = 64;

/** The agent of an MCP client's `clientInfo`, or null when it gave no usable name. */
export function agentOf(info: { name?: unknown; title?: unknown } | undefined): AgentName | null {
  const clean = (value: unknown) =>
    typeof value === "string" ? value.replace(/[\p{Cc}\p{Cf}]/gu, "").trim().slice(0, MAX_CHARS) : "";
  const name = clean(info?.name);
  if (name === "") return null;
  const title = clean(info?.title);
  return { name, title: title === "" || title === name ? null : title };
}

/** `name`, or `name;title`, each URI-encoded (`;` never appears inside either). */
export function encodeAgent(agent: AgentName): string {
  return encodeURIComponent(agent.name) + (agent.title === null ? "" : `;${encodeURIComponent(agent.title)}`);
}

export function decodeAgent(stored: string): AgentName | null {
  if (stored === "") return null;
  const [name, title] = stored.split(";");
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return agentOf({ name: decode(name), title: title === undefined ? undefined : decode(title) });
}
