import { classifyTmuxError, TmuxError } from "./errors.ts";
import { adaptCommand } from "./dialect.ts";
import { unvisLines } from "./printed.ts";

/**
 * `-u`: a tmux client started without a UTF-8 locale (MCP clients often pass no LANG) prints
 * control characters, such as the field separator, as "_".
 */
export const UTF8 = ["-u"] as const;

export interface OneShotResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * How long one tmux client may take. Every one-shot is a short command; a tmux 3.3a client was seen
 * to hang for good after connecting (client and server idle, the command never run), and a call
 * must end with an error rather than never.
 */
export const ONE_SHOT_LIMIT_MS = 30_000;

/** tmux's own options that take a value (`-L NAME`, `-S PATH`, `-f FILE`, `-c COMMAND`, `-T FEATURES`). */
const VALUED = new Set(["-L", "-S", "-f", "-c", "-T"]);

/**
 * One-shot arguments as a tmux of any version needs them: each command's format adapted
 * (src/tmux/dialect.ts: a one-shot client does not know its server's version, so formats are
 * read the same way on all), and whether the output is read with tmux's escapes undone.
 */
export function adaptOneShot(args: readonly string[]): { args: string[]; unescape: boolean } {
  let at = 0;
  while (at < args.length && args[at].startsWith("-") && args[at] !== ";") at += VALUED.has(args[at]) ? 2 : 1;
  const commands: string[][] = [[]];
  for (const arg of args.slice(at)) arg === ";" ? commands.push([]) : commands.at(-1)!.push(arg);
  const adapted = commands.filter((c) => c.length > 0).map((c) => adaptCommand("unknown", c));
  return {
    args: [...args.slice(0, at), ...adapted.flatMap((a, i) => i === 0 ? a.command : [";", ...a.command])],
    unescape: adapted.some((a) => a.unescape),
  };
}

/**
 * Runs one tmux process with an argument vector (never a shell). Used before a session exists,
 * for shutdown, and for anything that must not block the shared control connection.
 */
export async function tmuxOneShot(
  args: readonly string[],
  stdin?: Uint8Array,
  limitMs = ONE_SHOT_LIMIT_MS,
): Promise<OneShotResult> {
  const adapted = adaptOneShot(args);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("tmux", {
      args: [...UTF8, ...adapted.args],
      stdin: stdin ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new TmuxError("tmux_missing", "tmux is not installed or not on PATH: install tmux 3.2 or newer");
    }
    throw error;
  }
  if (stdin) {
    const writer = child.stdin.getWriter();
    await writer.write(stdin);
    await writer.close();
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), limitMs));
  const out = await Promise.race([child.output(), hung]).finally(() => clearTimeout(timer));
  if (!out) {
    try {
      child.kill("SIGKILL");
    } catch { /* it ended meanwhile */ }
    await child.output().catch(() => {});
    throw new TmuxError(
      "disconnected",
      `tmux ${
        args.find((a) => !a.startsWith("-")) ?? ""
      } did not answer within ${limitMs} ms (its client was stopped); ` +
        "retry the call, and if it happens again check the tmux server with tmuxwright doctor",
      args.join(" "),
    );
  }
  const decoder = new TextDecoder();
  const stdout = decoder.decode(out.stdout);
  return {
    code: out.code,
    stdout: adapted.unescape ? unvisLines(stdout) : stdout,
    stderr: decoder.decode(out.stderr),
  };
}

/** Like tmuxOneShot, but a non-zero exit becomes a classified TmuxError. */
export async function tmuxOneShotChecked(args: readonly string[]): Promise<string> {
  const result = await tmuxOneShot(args);
  if (result.code !== 0) throw classifyTmuxError(result.stderr || result.stdout, args.join(" "));
  return result.stdout;
}
