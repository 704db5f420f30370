/** RFC 5424 severities, in the order MCP logging uses them (least severe first). */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = typeof LOG_LEVELS[number];

/** Something worth telling an operator: tmux reconnects, reaped workspaces, slow tmux commands, refused calls. */
export interface LogEvent {
  kind: "log";
  level: LogLevel;
  /** What the event concerns: `tmux`, `workspace`, `safety`. */
  logger: string;
  message: string;
  /** The connection the event belongs to (a refused call); absent for server-wide events. */
  origin?: string;
}

/** A `watch_pane` trigger or a `start_process` outcome (ready, exit) that fired. */
export interface TriggerEvent {
  kind: "trigger";
  source: "watch_pane" | "start_process";
  paneId: string;
  paneName: string | null;
  /** The trigger's name (`exit`, `shell`, `pattern:…`, `idle:5`) or `ready`. */
  event: string;
  /** The line that fired it, or a short description. */
  detail: string;
  exitCode: number | null;
  /** The connection that started the watch or the process. */
  origin?: string;
}

/** The set of panes (or their names, or their sessions) changed. */
export interface PanesChangedEvent {
  kind: "panes-changed";
  /** The remote host whose panes changed; absent for this machine's. */
  host?: string;
}

export type ServerEvent = LogEvent | TriggerEvent | PanesChangedEvent;
export type Listener = (event: ServerEvent) => void;

/**
 * The server's one event stream, built once by the App. The engine publishes into it; each MCP
 * connection subscribes while it is open (logging notifications, channel pushes, list_changed)
 * and unsubscribes when it closes. Listeners run synchronously and must not throw; a throwing
 * listener is reported on stderr and does not stop the others.
 */
export class ServerEvents {
  readonly #listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  emit(event: ServerEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error("[tmuxwright] event listener failed:", error);
      }
    }
  }

  log(level: LogLevel, logger: string, message: string, origin?: string): void {
    this.emit({ kind: "log", level, logger, message, ...(origin === undefined ? {} : { origin }) });
  }
}

/** Whether `level` is at least as severe as `minimum`. */
export function atLeast(level: LogLevel, minimum: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(minimum);
}
