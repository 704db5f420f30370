/**
 * What differs between the tmux releases people run (3.2a to master), known in this one place
 * and asked of each server once per connection, in the same write as the connection's first
 * command: its version, and a probe of each behaviour that differs. Nothing above src/tmux/
 * learns about versions: commands are adapted here on their way out and replies on their way in.
 * The causes, with the releases they concern, are in docs/DECISIONS.md ("Every tmux people run").
 */
import { doubledBackslashes, unvis } from "./printed.ts";
import { TmuxError } from "./errors.ts";

export interface TmuxDialect {
  /** As the server names itself (`#{version}`): "3.3a", "3.7c", "next-3.8", "master". */
  readonly version: string;
  /** Printed replies pass through vis(3) (3.4, 3.5a): read exactly only with their data backslashes doubled. */
  readonly printsEscaped: boolean;
  /** paste-buffer passes a buffer through vis(3) unless given -S (3.7 and later): an ESC would arrive as `^[`. */
  readonly pasteNeedsRaw: boolean;
  /**
   * 3.2: a new window takes the size of the client whose command made it (80x24 for a control or
   * one-shot client), not its session's default-size: such windows are resized after (window_size.ts).
   */
  readonly windowsTakeClientSize: boolean;
  /** 3.2: display-message reads `-c` as a flag without a value, so a message cannot be aimed at one client. */
  readonly displayHasNoClientFlag: boolean;
}

/** The size tmuxwright's sessions give their windows (`default-size`, or `-x`/`-y` where it makes them). */
export const WINDOW_SIZE = { width: 200, height: 50 } as const;

/** The oldest release tmuxwright runs on (its control mode, formats and hooks). */
export const OLDEST_TMUX = "3.2";

/**
 * The probes, written with the connection's first command: the version with a control byte
 * after it (back raw, or as `\001` where printed lines are escaped), and a paste with `-S` of a
 * buffer that does not exist (refused as an unknown flag before 3.7, for the missing buffer after:
 * nothing is pasted either way).
 */
export const DIALECT_PROBES: readonly (readonly string[])[] = [
  ["display-message", "-p", "#{version}\x01"],
  ["paste-buffer", "-S", "-b", "tmuxwright-probe-none"],
];

/** The dialect from the probes' replies: the version line, and the paste's refusal. */
export function dialectFrom(versionLine: string, pasteRefusal: string): TmuxDialect {
  const printsEscaped = versionLine.endsWith("\\001");
  const version = printsEscaped
    ? versionLine.slice(0, -4)
    : versionLine.slice(0, versionLine.endsWith("\x01") ? -1 : undefined);
  const release = releaseOf(version);
  const before33 = release !== null && release < 303;
  return {
    version,
    printsEscaped,
    pasteNeedsRaw: !/unknown flag|usage/i.test(pasteRefusal),
    windowsTakeClientSize: before33,
    displayHasNoClientFlag: before33,
  };
}

/** Until a server has answered the probes: nothing adapted, and a format's reply read as tmux versions without escapes print it. */
export const UNPROBED: TmuxDialect = {
  version: "unknown",
  printsEscaped: false,
  pasteNeedsRaw: false,
  windowsTakeClientSize: false,
  displayHasNoClientFlag: false,
};

/** A release as major × 100 + minor (302 for "3.2a"); null for master, "next-" builds and schemes not known. */
function releaseOf(version: string): number | null {
  if (/^master$|^next-/.test(version)) return null;
  const match = /^(\d+)\.(\d+)/.exec(version);
  return match ? Number(match[1]) * 100 + Number(match[2]) : null;
}

/** Commands whose printed reply is not a printed line but the data itself (never escaped). */
const RAW_OUTPUT = new Set(["capture-pane", "show-buffer", "save-buffer"]);

/** Commands whose -F takes the format they print (if-shell's -F is a flag of its own). */
const FORMAT_FLAG = new Set([
  "list-sessions",
  "list-windows",
  "list-panes",
  "list-clients",
  "list-buffers",
  "new-session",
  "new-window",
  "split-window",
  "break-pane",
]);

/** Where a command's format is: the argument after -F, or display-message -p's message. */
function formatIndex(command: readonly string[]): number {
  const flag = FORMAT_FLAG.has(command[0]) ? command.indexOf("-F") : -1;
  if (flag > 0 && flag + 1 < command.length) return flag + 1;
  if (command[0] === "display-message" && command.includes("-p")) return command.length - 1;
  return -1;
}

/** A command as this server needs it, and whether its reply lines are to be read with tmux's escapes undone. */
export interface Adapted {
  command: string[];
  unescape: boolean;
}

/**
 * Adapts one command for `dialect`; `unknown` (a step run where the connection's dialect may not
 * be known: one-shot clients, guarded scripts) doubles backslashes in any format whatever the
 * version, so its reply reads exactly on every release, escaped or not.
 */
export function adaptCommand(dialect: TmuxDialect | "unknown", command: readonly string[]): Adapted {
  const out = [...command];
  if (out[0] === "paste-buffer" && dialect !== "unknown" && dialect.pasteNeedsRaw) out.splice(1, 0, "-S");
  if (out[0] === "display-message" && dialect !== "unknown" && dialect.displayHasNoClientFlag) {
    const [flag, end] = [out.indexOf("-c"), out.indexOf("--")];
    if (flag > 0 && (end < 0 || flag < end)) {
      throw new TmuxError(
        "command_failed",
        `tmux ${dialect.version} cannot show a message to one client (its display-message -c takes no client); ` +
          "tmux 3.3 or newer can",
      );
    }
  }
  if (RAW_OUTPUT.has(out[0])) return { command: out, unescape: false };
  const escaped = dialect === "unknown" || dialect.printsEscaped;
  const at = formatIndex(out);
  if (escaped && at > 0) out[at] = doubledBackslashes(out[at]);
  // A printed line without a format (show-options, show-environment) cannot be doubled: on an
  // escaping server its escapes are undone all the same (a literal backslash before one is ambiguous).
  return { command: out, unescape: at > 0 ? escaped : dialect !== "unknown" && dialect.printsEscaped };
}

/** A reply's lines as the command printed them. */
export function readReply(adapted: Adapted, lines: string[]): string[] {
  return adapted.unescape ? lines.map(unvis) : lines;
}

/** Whether a version tmux names is at least `OLDEST_TMUX` (master, "next-" builds and unknown schemes are not refused on a guess). */
export function supportedVersion(version: string): boolean {
  const release = releaseOf(version.replace(/^tmux /, ""));
  return release === null || release >= releaseOf(OLDEST_TMUX)!;
}
