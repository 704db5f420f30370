export const NAME = "tmuxwright";
export const VERSION = "0.1.0";
/** The Deno release the project is tested with; the npm package depends on exactly this one. */
export const DENO_VERSION = "2.9.6";
