/**
 * Runs the official MCP conformance suite (server mode) against `tmuxwright --http` started with
 * the start task's permissions on a private tmux socket, once per protocol era the server speaks:
 * the scenarios MCP 2025-11-25 requires (initialize, sessions) and those 2026-07-28 requires
 * (stateless, server/discover, input_required). Exit code 0 when every scenario of both passes
 * except those in that era's baseline (scripts/conformance_baseline_<era>.yml), and none of those
 * passes.
 *
 *   deno run -A scripts/conformance.ts [2025-11-25|2026-07-28]
 */
import { startPermissions } from "../tests/helpers/harness.ts";

const ROOT = new URL("../", import.meta.url).pathname;
export const SUITE = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";
export const ERAS = ["2025-11-25", "2026-07-28"] as const;

const eras = Deno.args.length > 0 ? ERAS.filter((era) => Deno.args.includes(era)) : [...ERAS];
const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-conf" });
const env: Record<string, string> = { ...Deno.env.toObject(), TMUXWRIGHT_TMUX_CONFIG: "/dev/null" };
delete env.TMUX;
delete env.TMUX_PANE;
const server = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    ...startPermissions(env, [dir]),
    `${ROOT}main.ts`,
    "--socket-path",
    `${dir}/s`,
    "--state-dir",
    `${dir}/state`,
    "--http",
    "127.0.0.1:0",
  ],
  env,
  stdin: "null",
  stdout: "piped",
  stderr: "inherit",
}).spawn();
let code = 1;
try {
  const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening on (\S+)/.test(text)) {
    const next = await reader.read();
    if (next.done) throw new Error("tmuxwright --http exited before listening");
    text += next.value;
  }
  const url = /listening on (\S+)/.exec(text)![1];
  code = 0;
  for (const era of eras) {
    console.log(`\n=== MCP ${era} (${SUITE}) ===`);
    const suite = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        "-A",
        SUITE,
        "server",
        "--url",
        `${url}/mcp`,
        "--requirements",
        era,
        "--expected-failures",
        `${ROOT}scripts/conformance_baseline_${era}.yml`,
        "-o",
        `${dir}/results-${era}`,
      ],
      cwd: dir,
      env: { ...env, NO_COLOR: "1" },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    console.log(`=== MCP ${era}: exit ${suite.code} ===`);
    if (suite.code !== 0) code = suite.code;
  }
} finally {
  server.kill("SIGTERM");
  await server.status;
  await new Deno.Command("tmux", { args: ["-S", `${dir}/s`, "kill-server"], stderr: "null" }).output().catch(() => {});
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
Deno.exit(code);
