/** Servers: the tmux servers this user can reach (socket listing), their facts, and ending one. */
export { listSocketPaths } from "./sockets.ts";
export { connectedServerFacts, killServer, probeServer, type ServerFacts } from "./facts.ts";
