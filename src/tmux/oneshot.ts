import { classifyTmuxError, TmuxError } from "./errors.ts";

export interface OneShotResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Every tmux client this server starts says it takes UTF-8 (`-u`). MCP clients often start the
 * server with a few variables only (no LANG): a tmux client in the C locale gets control
 * characters (our \x1f field separator) and non-ASCII text as "_".
 */
export const UTF8_CLIENT = "-u";

/**
 * Runs one tmux process with an argument vector (never a shell). Used before a session exists,
 * for shutdown, and for anything that must not block the shared control connection.
 */
export async function tmuxOneShot(args: readonly string[], stdin?: Uint8Array): Promise<OneShotResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("tmux", {
      args: [UTF8_CLIENT, ...args],
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
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Like tmuxOneShot, but a non-zero exit becomes a classified TmuxError. */
export async function tmuxOneShotChecked(args: readonly string[]): Promise<string> {
  const result = await tmuxOneShot(args);
  if (result.code !== 0) throw classifyTmuxError(result.stderr || result.stdout, args.join(" "));
  return result.stdout;
}
