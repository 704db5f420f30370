/**
 * Channels: tmux `wait-for` for agents. Waits run in their own tmux client, never on the shared
 * control connection; signals go over it (a signal does not block).
 */
export { Channels, type ChannelWait } from "./channels.ts";
export { ChannelProcess } from "./waiter.ts";
