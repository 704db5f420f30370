import { ToolError } from "../../engine/errors.ts";

/**
 * Resource URIs. A pane is named by its tmux id or its name, percent-encoded as one URI path
 * segment (RFC 3986, what RFC 6570 `{pane_id}` expansion produces): pane `%3` is
 * `tmux://panes/%253`, a pane named `web` is `tmux://panes/web`. A raw `%3` is refused rather
 * than guessed at, since `%31` is also the valid encoding of `1`.
 */
export const SESSIONS_URI = "tmux://sessions";
export const PANE_TEMPLATE = "tmux://panes/{pane_id}";
export const CONTENT_TEMPLATE = "tmux://panes/{pane_id}/content";
export const LOG_TEMPLATE = "tmux://panes/{pane_id}/log";
export const TEMPLATE_URIS = [PANE_TEMPLATE, CONTENT_TEMPLATE, LOG_TEMPLATE] as const;

export type PaneResource = "pane" | "content" | "log";
export type ResourceRef = { kind: "sessions" } | { kind: PaneResource; ref: string };

const PANE_URI = /^tmux:\/\/panes\/([^/?#]+)(\/content|\/log)?$/;

export function paneUri(paneId: string, kind: PaneResource): string {
  const base = `tmux://panes/${encodeURIComponent(paneId)}`;
  return kind === "pane" ? base : `${base}/${kind}`;
}

/** What a URI names; a malformed one is an error that says how to write it. */
export function parseUri(uri: string): ResourceRef {
  if (uri === SESSIONS_URI || uri === `${SESSIONS_URI}/`) return { kind: "sessions" };
  const match = PANE_URI.exec(uri);
  if (!match) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Unknown resource ${
        JSON.stringify(uri.slice(0, 200))
      }: expected ${SESSIONS_URI} or ${PANE_TEMPLATE}[/content|/log]`,
      "Use resources/list or resources/templates/list to see the URIs.",
    );
  }
  let ref: string;
  try {
    ref = decodeURIComponent(match[1]);
  } catch {
    ref = "";
  }
  // deno-lint-ignore no-control-regex
  if (ref === "" || /[\x00-\x1f\x7f]/.test(ref)) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `Invalid pane in resource URI ${JSON.stringify(uri.slice(0, 200))}: percent-encode the pane id`,
      'Pane "%3" is written tmux://panes/%253; a pane name can be used as it is.',
    );
  }
  const kind = match[2] === "/content" ? "content" : match[2] === "/log" ? "log" : "pane";
  return { kind, ref };
}
