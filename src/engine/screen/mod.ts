/** Screen: a pane's visible screen and state, and its rendering as HTML or SVG the way a person sees it. */
export { readScreen, type Screen, type ScreenState } from "./snapshot.ts";
export { ScreenRenderer, toHtml, toSvg } from "./snapshot_render.ts";
