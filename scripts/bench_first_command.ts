/**
 * The first command in a new server against the shell's own start-up, light and heavy in one run:
 *
 * - the shell alone: `bash -ic exit` (or zsh, fish) in a new tmux pane, from the pane's creation
 *   to its end (the start-up files, as the shell runs them in a terminal), and the same with its
 *   first prompt's hooks (`PROMPT_COMMAND`, `precmd`, `fish_prompt`), which `-ic exit` never runs
 *   but a person waits for before typing (pyenv-virtualenv's first one costs 150-300 ms here);
 * - the first `execute_command("true")` of a new server (no pane yet: it makes the default pane),
 *   from the call to its answer.
 *
 *   deno run -A scripts/bench_first_command.ts [--runs 5] [--shells bash,zsh,fish] [--homes light,heavy,root]
 *
 * Goal (issue 40): first command ≤ the shell's own start-up + 150 ms. Homes: the test home (no
 * start-up files), a heavy one (tests/helpers/heavy_shell.ts), and with `root` the user's own.
 * Runs alternate between the two measurements so the machine's load falls on both alike.
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { heavyHome } from "../tests/helpers/heavy_shell.ts";

const SHELLS: Record<string, string> = { bash: "/bin/bash", zsh: "/usr/bin/zsh", fish: "/usr/bin/fish" };

function flag(name: string, fallback: string): string {
  const at = Deno.args.indexOf(name);
  return at >= 0 ? Deno.args[at + 1] : fallback;
}

const runs = Number(flag("--runs", "5"));
const shells = flag("--shells", "bash").split(",");
const homes = flag("--homes", "light,heavy").split(",");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * What the shell runs for its first prompt besides drawing it: the prompt hooks (a person waits
 * for them before typing; `-ic exit` never runs them).
 */
const FIRST_PROMPT: Record<string, string> = {
  bash: 'for c in "${PROMPT_COMMAND[@]}"; do eval "$c"; done; exit',
  zsh: "for f in precmd $precmd_functions; do (( $+functions[$f] )) && $f; done; exit",
  fish: "emit fish_prompt; fish_prompt >/dev/null; exit", // the event sets up the interactive shell
};

/** The shell alone in a tmux pane: `SHELL -ic SCRIPT`, from new-window to the pane's death. */
async function shellAlone(socket: string, shell: string, home: string, script = "exit"): Promise<number> {
  const tmux = (...args: string[]) =>
    new Deno.Command("tmux", { args: ["-S", socket, ...args], stdout: "piped", stderr: "null" }).output();
  const started = performance.now();
  const made = await tmux(
    "new-window",
    "-d",
    "-P",
    "-F",
    "#{pane_id}",
    "--",
    "env",
    `HOME=${home}`,
    shell,
    "-ic",
    script,
  );
  const pane = new TextDecoder().decode(made.stdout).trim();
  for (;;) {
    // Gone (the window closed with it) or dead: an id other than the pane's own answers.
    const seen = await tmux("display-message", "-p", "-t", pane, "#{pane_id}#{?pane_dead,dead,}");
    if (new TextDecoder().decode(seen.stdout).trim() !== pane) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const elapsed = performance.now() - started;
  await tmux("kill-pane", "-t", pane);
  return elapsed;
}

/** A new server; its first execute_command (the default pane is made for it). */
async function firstCommand(shell: string, home: string): Promise<number> {
  await using server = await TestServer.start({ env: { HOME: home, SHELL: shell } });
  const started = performance.now();
  await server.call("execute_command", { command: "true", timeout_ms: 60_000 });
  return performance.now() - started;
}

const heavy = homes.includes("heavy") ? await heavyHome() : null;
const light = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-light" });
const dirs: Record<string, string> = { light, heavy: heavy ?? "", root: Deno.env.get("HOME") ?? "/root" };
const loadavg = async () => (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
console.log(`load average before: ${await loadavg()}; ${runs} runs each, alternating`);
console.log(
  "| shell | home | `SHELL -ic exit` | the same and its first prompt's hooks | first execute_command | difference " +
    "(to -ic exit; to the first prompt) | runs (-ic exit / with hooks / first) |",
);
console.log("|---|---|---|---|---|---|---|");
// One tmux server for the shell-alone runs (its own socket, removed at the end).
const socketDir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-first" });
const socket = `${socketDir}/s`;
await new Deno.Command("tmux", { args: ["-S", socket, "-f", "/dev/null", "new-session", "-d", "sleep 1d"] }).output();
try {
  for (const name of shells) {
    const shell = SHELLS[name] ?? name;
    for (const home of homes) {
      const alone: number[] = [];
      const prompt: number[] = [];
      const first: number[] = [];
      for (let i = 0; i < runs; i++) {
        alone.push(await shellAlone(socket, shell, dirs[home]));
        prompt.push(await shellAlone(socket, shell, dirs[home], FIRST_PROMPT[name] ?? "exit"));
        first.push(await firstCommand(shell, dirs[home]));
      }
      const [a, p, f] = [median(alone), median(prompt), median(first)];
      const row = [name, home, a.toFixed(0), p.toFixed(0), f.toFixed(0)];
      const each = [alone, prompt, first].map((v) => v.map((t) => t.toFixed(0)).join(" ")).join(" / ");
      console.log(`| ${row.join(" | ")} | +${(f - a).toFixed(0)}; +${(f - p).toFixed(0)} | ${each} |`);
    }
  }
} finally {
  await new Deno.Command("tmux", { args: ["-S", socket, "kill-server"] }).output();
  await Deno.remove(socketDir, { recursive: true });
  await Deno.remove(light, { recursive: true });
  if (heavy) await Deno.remove(heavy, { recursive: true });
}
console.log(`load average after: ${await loadavg()}`);
