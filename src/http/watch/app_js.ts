import { WALL_RENDER_JS } from "./wall_render_js.ts";
import { WALL_APP_JS } from "./wall_app_js.ts";
import { FOCUS_JS } from "./focus_js.ts";
import { statusText } from "../../engine/watch/mod.ts";

/**
 * The /watch page's script (one file, no framework): the wall's drawing, its state and stream,
 * and the full-size view of one pane, in one scope.
 */
export const WATCH_APP_JS = `"use strict";
(() => {
  const statusText = ${statusText.toString()};
${WALL_RENDER_JS}
${WALL_APP_JS}
${FOCUS_JS}
  const first = focus.id;
  focus.id = null;
  connect();
  if (first) openFocus(first);
})();
`;
