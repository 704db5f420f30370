/**
 * Settings: tmux options (server, session, window, pane; global or one target), the environment
 * new panes get, and hooks (read only).
 */
export { type OptionTarget, type OptionValue, type Scope, SCOPES, setOption, showOption } from "./options.ts";
export { optionProblem } from "./policy.ts";
export { setEnvironment, showEnvironment } from "./environment.ts";
export { type HookEntry, showHooks } from "./hooks.ts";
