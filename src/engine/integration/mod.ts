/**
 * Shell integration: the start-up files that make the shells this server starts print marks
 * where a command starts and ends and where the prompt is drawn (as terminals do with OSC 133),
 * so commands are typed as they are and a pane shows them, not plumbing. Depends on nothing.
 */
export {
  decodeMarks,
  encodeMarks,
  type Launch,
  ShellIntegration,
  shellLaunch,
  type ShellMarks,
  type TypingMode,
} from "./launch.ts";
export { lastMark, type Mark, MARK_OSC, type MarkKind, MarkReader, newNonce } from "./marks.ts";
export { ACCEPT_KEY, BASH_RC, FISH_INIT, ZSH_FILES } from "./scripts.ts";
