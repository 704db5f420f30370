import type { McpServer } from "./sdk.ts";
import type { App } from "../app.ts";
import type { Connection } from "./connection.ts";
import type { TriggerEvent } from "../engine/events/mod.ts";

/** The experimental capability that makes Claude Code treat this server as a channel. */
export const CHANNEL_CAPABILITY = "claude/channel";
export const CHANNEL_METHOD = "notifications/claude/channel";
const MAX_DETAIL = 500;

/**
 * `--channel`: each trigger event (a watch_pane trigger, a start_process `ready` or exit) that
 * concerns this connection is pushed as `notifications/claude/channel`. Claude Code shows
 * `content` to the model inside a `<channel>` tag whose attributes are `meta`: string values,
 * keys of letters, digits and underscores only.
 */
export function forwardChannel(server: McpServer, app: App, connection: Connection): void {
  const unsubscribe = app.events.subscribe((event) => {
    if (event.kind !== "trigger" || !connection.concerns(event.origin) || connection.closed) return;
    server.server.notification(channelNotification(event, app.config.toolPrefix)).catch(() => {});
  });
  connection.onClose(unsubscribe);
}

/** The exact shape pushed; `exit_code` and `pane_name` are present only when known. */
export function channelNotification(event: TriggerEvent, toolPrefix: string) {
  const tool = toolPrefix + event.source;
  const detail = event.detail.length > MAX_DETAIL ? `${event.detail.slice(0, MAX_DETAIL)}…` : event.detail;
  const pane = event.paneName === null ? event.paneId : `${event.paneId} ("${event.paneName}")`;
  const exit = event.exitCode === null ? "" : ` (exit code ${event.exitCode})`;
  return {
    method: CHANNEL_METHOD,
    params: {
      content: `${tool}: pane ${pane}: ${event.event}${exit}: ${detail}`,
      meta: {
        pane_id: event.paneId,
        ...(event.paneName === null ? {} : { pane_name: event.paneName }),
        event: event.event,
        detail,
        ...(event.exitCode === null ? {} : { exit_code: String(event.exitCode) }),
        tool,
      },
    },
  };
}
