import { classifyTmuxError, TmuxError } from "./errors.ts";

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

/**
 * Runs one tmux process with an argument vector (never a shell). Used before a session exists,
 * for shutdown, and for anything that must not block the shared control connection.
 */
export async function tmuxOneShot(
  args: readonly string[],
  stdin?: Uint8Array,
  limitMs = ONE_SHOT_LIMIT_MS,
): Promise<OneShotResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("tmux", {
      args: [...UTF8, ...args],
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
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Like tmuxOneShot, but a non-zero exit becomes a classified TmuxError. */
export async function tmuxOneShotChecked(args: readonly string[]): Promise<string> {
  const result = await tmuxOneShot(args);
  if (result.code !== 0) throw classifyTmuxError(result.stderr || result.stdout, args.join(" "));
  return result.stdout;
}
