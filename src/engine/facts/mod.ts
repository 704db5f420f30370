/**
 * Process facts: what the OS says about the programs in a pane (which one is in front, whether
 * it reads the terminal, its command line), from one look at /proc or one `ps` call, run by tmux.
 * The only room that names /proc or ps; everything else reads process facts through this door.
 */
export { FACTS_BACKENDS, type FactsBackend, type Look, processExists, type ProcessFact } from "./look.ts";
export { ProcessFacts } from "./process_facts.ts";
export { type PaneProcess, paneProcess, type ProcState, readProcState } from "./proc_state.ts";
export { asksForInput, atShellPrompt, waitsForInput, waitsOnPerson } from "./prompt.ts";
export { SHELLS } from "./shells.ts";
export { killByArgvScript, PROC_TEST } from "./scripts.ts";
export { probeBackend } from "./probe.ts";
