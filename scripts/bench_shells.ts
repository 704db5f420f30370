/**
 * Time from create_pane to the first execute_command's answer, per shell as the user's `$SHELL`
 * (each with a start-up file that prints, sleeps 0.3 s and runs commands, as users' files do; the
 * wrapper ignores its arguments, so it prints no marks). Median of --runs (default 3).
 *
 * Run: deno run -A scripts/bench_shells.ts [--runs 3]
 */
import { TestServer } from "../tests/helpers/harness.ts";

const runs = Number(Deno.args[Deno.args.indexOf("--runs") + 1] ?? 3) || 3;
const RC = "echo 'loading 1'; sleep 0.3; ls / >/dev/null; echo 'loading 2'; PS1='[rc] $ '\n";
const SHELLS: [string, string, { file: string; text: string; env?: string } | null][] = [
  ["bash", "/bin/bash", { file: ".bashrc", text: RC }],
  ["wrapper (bash --norc)", "WRAPPER", null],
  ["zsh", "/usr/bin/zsh", { file: ".zshrc", text: RC }],
  ["fish", "/usr/bin/fish", { file: ".config/fish/config.fish", text: "echo loading; sleep 0.3\n" }],
  ["dash", "/usr/bin/dash", { file: ".shrc", text: RC, env: "ENV" }],
  ["mksh", "/usr/bin/mksh", { file: ".mkshrc", text: RC }],
  ["ksh93", "/usr/bin/ksh93", { file: ".kshrc", text: RC, env: "ENV" }],
  ["yash", "/usr/bin/yash", { file: ".yashrc", text: RC }],
  ["busybox sh", "BUSYBOX", { file: ".shrc", text: RC, env: "ENV" }],
  ["tcsh", "/usr/bin/tcsh", { file: ".tcshrc", text: "echo loading\nsleep 0.3\nset prompt='[rc] > '\n" }],
];

console.log(`First command after create_pane (ms, median of ${runs}; start-up files sleep 0.3 s)\n`);
console.log("| shell | first command | each run |\n|---|---|---|");
for (const [label, program, rc] of SHELLS) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-bench-home" });
    try {
      let shell = program;
      if (program === "WRAPPER" || program === "BUSYBOX") {
        await Deno.mkdir(`${home}/bin`);
        shell = `${home}/bin/${program === "WRAPPER" ? "bash" : "ash"}`;
        if (program === "WRAPPER") {
          await Deno.writeTextFile(shell, "#!/bin/sh\nexec /bin/bash --norc --noprofile\n", { mode: 0o755 });
        } else await Deno.symlink("/usr/bin/busybox", shell);
      }
      const env: Record<string, string> = { HOME: home, SHELL: shell };
      if (rc) {
        await Deno.mkdir(`${home}/${rc.file}/..`.replace(/\/[^/]+\/\.\.$/, ""), { recursive: true });
        await Deno.writeTextFile(`${home}/${rc.file}`, rc.text);
        if (rc.env) env[rc.env] = `${home}/${rc.file}`;
      }
      await using server = await TestServer.start({ env });
      const started = performance.now();
      const { pane_id } = await server.call<{ pane_id: string }>("create_pane", {});
      await server.call("execute_command", { pane_id, command: "echo hi" });
      times.push(performance.now() - started);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `| ${label} | ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} | ${times.map((t) => t.toFixed(0)).join(", ")} |`,
  );
}
