/**
 * Display: what tmux shows. Formats evaluated for the agent (read only), status-line messages for
 * the person, and a side pane of notes for the person that the agent writes but never reads back.
 */
export { evaluateFormat, type Notified, notifyClients } from "./messages.ts";
export { DisplayPane, DisplayPanes } from "./display_pane.ts";
