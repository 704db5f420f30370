/**
 * Processes below a pid: how tests see the flags a launcher really gave deno. Deno reads /proc only
 * with --allow-all, so `ps` gives the tree and `cat` each /proc/PID/cmdline (argv, NUL-separated).
 */

/** The argv of every descendant of `pid`, parents before their children. */
export function descendants(pid: number): { pid: number; argv: string[] }[] {
  const table = run("ps", "-e", "-o", "pid=,ppid=").trim().split("\n").map((line) =>
    line.trim().split(/\s+/).map(Number)
  );
  const below = (parent: number): number[] =>
    table.filter(([, ppid]) => ppid === parent).flatMap(([child]) => [child, ...below(child)]);
  return below(pid).map((child) => ({ pid: child, argv: argvOf(child) }))
    .filter(({ argv }) => argv.length > 0);
}

/** The argv of one process. */
export function argvOf(pid: number): string[] {
  return run("cat", `/proc/${pid}/cmdline`).split("\0").slice(0, -1);
}

/** The `deno run … SCRIPT …` process below `pid` whose script ends with `script`, or undefined. */
export function denoRunBelow(pid: number, script: string): { pid: number; argv: string[] } | undefined {
  return descendants(pid).find(({ argv }) => argv[1] === "run" && argv.some((arg) => arg.endsWith(script)));
}

function run(command: string, ...args: string[]): string {
  const out = new Deno.Command(command, { args, stdout: "piped", stderr: "null" }).outputSync();
  return new TextDecoder().decode(out.stdout);
}
