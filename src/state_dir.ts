import { dirname } from "node:path";
import { ConfigError } from "./config.ts";

/**
 * Creates a directory the server writes into (mode 0700, parents too) before anything uses it.
 * A failure is an operator problem: one line naming the path, the OS's reason and the flag that
 * chooses another place.
 */
export async function ensureDirectory(path: string, what: string, flag: string): Promise<void> {
  try {
    await Deno.mkdir(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigError(`Cannot create ${what} "${path}": ${reason(error)}; choose another with ${flag}`);
  }
}

/** The state directory, and the directory an audit file goes into. */
export async function prepareDirectories(config: { stateDir: string; audit: string | null }): Promise<void> {
  await ensureDirectory(config.stateDir, "the state directory", "--state-dir");
  if (config.audit) await ensureDirectory(dirname(config.audit), "the audit file's directory", "--audit");
}

/** The OS's words without Deno's class name and stack. */
export function reason(error: unknown): string {
  return error instanceof Error ? error.message.replace(/ \(os error \d+\).*$/s, "") : String(error);
}
