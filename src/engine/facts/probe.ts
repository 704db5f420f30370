import { join } from "node:path";
import { tmuxOneShot } from "../../tmux/oneshot.ts";
import type { FactsBackend } from "./look.ts";
import { PROC_TEST } from "./scripts.ts";

/**
 * The backend a server started here would use: the forced one, else asked of a private tmux
 * server started for the question and ended by it (`doctor` runs before any server may exist,
 * and this process may read neither /proc nor run ps itself). Throws when tmux cannot answer.
 */
export async function probeBackend(forced: FactsBackend | null, stateDir: string): Promise<FactsBackend> {
  if (forced !== null) return forced;
  const socket = join(stateDir, `facts-probe-${Deno.pid}`);
  try {
    const { code, stdout, stderr } = await tmuxOneShot([
      ...["-S", socket, "-f", "/dev/null", "new-session", "-d", "cat"],
      ...[";", "if-shell", PROC_TEST, "set -g @tw_facts proc", "set -g @tw_facts ps"],
      ...[";", "show-options", "-gv", "@tw_facts", ";", "kill-server"],
    ]);
    const answer = stdout.trim();
    if (code !== 0 || (answer !== "proc" && answer !== "ps")) throw new Error(stderr.trim() || `answered "${answer}"`);
    return answer;
  } finally {
    await Deno.remove(socket).catch(() => {});
  }
}
