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
 * Runs one tmux process with an argument vector (never a shell). Used before a session exists,
 * for shutdown, and for anything that must not block the shared control connection.
 */
export async function tmuxOneShot(args: readonly string[], stdin?: Uint8Array): Promise<OneShotResult> {
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
