import * as z from "zod";
import * as patterns from "../safety/patterns.ts";

/** Argument schemas several tools share, declared once so their descriptions read the same everywhere. */
export const paneIdArg = patterns.paneRef.describe('pane id "%N" or the pane\'s name');
export const nameArg = patterns.nameArg.describe("unique name, usable as pane_id");
export const cwdArg = patterns.absolutePathArg.describe("absolute start directory");
export const commandArg = z.string().min(1).max(1_000_000);
export const DIRECTIONS = ["right", "below", "left", "above"] as const;
export const sessionArg = patterns.sessionRef.describe("session name or $N");
export const windowArg = patterns.windowTarget.describe("window @N or session:index");
export const newNameArg = patterns.nameArg.describe("new name");
export const newSessionNameArg = patterns.sessionNameArg.describe("new name");
