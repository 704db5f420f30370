/**
 * Hosts: the machines agents may drive (`local` and each `--host`), each reached through one
 * link (a TmuxServer; a remote one is `ssh … tmux -u -C`, or a container runtime's `exec -i … tmux -u -C`).
 * Design: README.md in this folder.
 */
export { type HostConfig, HostRegistry, type HostRegistryOptions, notConfigured } from "./registry.ts";
export { DEFAULT_SSH_TIMING, HostError, type SshTarget, unreachable } from "../../tmux/ssh.ts";
export type { LinkKind, LinkSpec } from "../../tmux/link_command.ts";
export { RemoteShells } from "./remote_shells.ts";
