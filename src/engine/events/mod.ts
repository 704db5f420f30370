/**
 * Events: the server's one stream of things that happen outside any single request (log events,
 * trigger events, pane set changes). Built once by the App; MCP connections subscribe to it.
 */
export {
  atLeast,
  type Listener,
  LOG_LEVELS,
  type LogEvent,
  type LogLevel,
  type PanesChangedEvent,
  type ServerEvent,
  ServerEvents,
  type TriggerEvent,
} from "./events.ts";
