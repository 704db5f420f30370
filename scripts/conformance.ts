/**
 * Runs the official MCP conformance suite (server mode) against `tmuxwright --http` started with
 * the start task's permissions on a private tmux socket. Exit code 0 when every scenario passes
 * except those in scripts/conformance_baseline.yml (and none of those passes).
 *
 *   deno run -A scripts/conformance.ts
 */
import { startPermissions } from "../tests/helpers/harness.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";

function startFlags(env: Record<string, string>, extra: string): string[] {
  return startPermissions(env, [extra]);
}

const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-conf" });
const env: Record<string, string> = { ...Deno.env.toObject(), TMUXWRIGHT_TMUX_CONFIG: "/dev/null" };
delete env.TMUX;
delete env.TMUX_PANE;
const server = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    ...startFlags(env, dir),
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
  const suite = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      "-A",
      SUITE,
      "server",
      "--url",
      `${url}/mcp`,
      "--expected-failures",
      `${ROOT}scripts/conformance_baseline.yml`,
      "-o",
      `${dir}/results`,
    ],
    cwd: dir,
    env: { ...env, NO_COLOR: "1" },
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  code = suite.code;
} finally {
  server.kill("SIGTERM");
  await server.status;
  await new Deno.Command("tmux", { args: ["-S", `${dir}/s`, "kill-server"], stderr: "null" }).output().catch(() => {});
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
Deno.exit(code);
