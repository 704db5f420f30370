import type { App } from "../app.ts";
import { type CompleteResult, type McpServer, ProtocolErrorCode } from "./sdk.ts";
import { listTree, type SessionInfo } from "../engine/panes/mod.ts";
import { answering, ProtocolError } from "./protocol_errors.ts";

export type CompletionKind = "pane" | "session" | "window";

/** At most this many values per answer (the protocol allows 100); `total` and `hasMore` tell the rest. */
export const MAX_COMPLETIONS = 50;

/** Which kind of value completes an argument of a prompt or of a resource template; null for none. */
export type KindOf = (ref: { type: "prompt"; name: string } | { type: "resource"; uri: string }, argument: string) =>
  | CompletionKind
  | null
  | undefined;

/**
 * completion/complete: `pane_id`, session and window arguments of prompts and resource templates,
 * from live tmux state, filtered by the typed prefix (case-insensitive), bounded in count. A
 * `session` already chosen in the same form narrows panes and windows to that session.
 */
export function registerCompletion(server: McpServer, app: App, kindOf: KindOf): void {
  server.server.setRequestHandler("completion/complete", (request) =>
    answering(async (): Promise<CompleteResult> => {
      const { ref, argument, context } = request.params;
      const kind = ref.type === "ref/prompt"
        ? kindOf({ type: "prompt", name: ref.name }, argument.name)
        : kindOf({ type: "resource", uri: ref.uri }, argument.name);
      if (kind === undefined) {
        const what = ref.type === "ref/prompt"
          ? `prompt ${JSON.stringify(ref.name)}`
          : `resource ${JSON.stringify(ref.uri)}`;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Nothing to complete: no ${what}`);
      }
      if (kind === null) return { completion: { values: [], total: 0, hasMore: false } };
      const values = candidates(await listTree(app.tmux), app, kind, argument.value, context?.arguments?.session);
      return {
        completion: {
          values: values.slice(0, MAX_COMPLETIONS),
          total: values.length,
          hasMore: values.length > MAX_COMPLETIONS,
        },
      };
    }, ProtocolErrorCode.InvalidParams));
}

/** Every matching value: names before ids (they read better), ids in numeric order. */
export function candidates(
  sessions: SessionInfo[],
  app: App,
  kind: CompletionKind,
  typed: string,
  session?: string,
): string[] {
  const inSession = sessions.filter((s) => session === undefined || s.name === session || s.sessionId === session);
  const windows = inSession.flatMap((s) =>
    s.windows
      .map((w) => ({ ...w, sessionName: s.name, panes: w.panes.filter((p) => !app.workspace.isHub(p)) }))
      .filter((w) => w.panes.length > 0)
  );
  const prefix = typed.toLowerCase();
  const matching = (values: string[]) => [...new Set(values)].filter((v) => v.toLowerCase().startsWith(prefix));
  const byNumber = (a: string, b: string) => Number(a.slice(1)) - Number(b.slice(1));
  const byName = (a: string, b: string) =>
    a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  switch (kind) {
    case "pane": {
      const panes = windows.flatMap((w) => w.panes);
      // Names belong to the workspace that gave them: only this server's can be resolved.
      const own = panes.filter((p) => p.instance === app.workspace.instance);
      const names = own.flatMap((p) => (p.name === null ? [] : [p.name])).sort(byName);
      return [...matching(names), ...matching(panes.map((p) => p.paneId)).sort(byNumber)];
    }
    case "session": {
      const visible = sessions.filter((s) => s.windows.some((w) => w.panes.some((p) => !app.workspace.isHub(p))));
      return [
        ...matching(visible.map((s) => s.name).sort(byName)),
        ...matching(visible.map((s) => s.sessionId)).sort(byNumber),
      ];
    }
    case "window":
      return [
        ...matching(windows.map((w) => `${w.sessionName}:${w.index}`)),
        ...matching(windows.map((w) => w.windowId)).sort(byNumber),
      ];
  }
}
