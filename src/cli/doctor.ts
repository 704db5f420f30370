import type { Config } from "../config.ts";
import { tmuxOneShot } from "../tmux/oneshot.ts";
import { INSTALL_HINT, localTmuxVersion, TESTED_RELEASES, testedRelease } from "../tmux/release.ts";
import { OLDEST_TMUX, supportedVersion } from "../tmux/dialect.ts";
import { paneEnvironment } from "../engine/panes/mod.ts";
import { probeBackend } from "../engine/facts/mod.ts";
import { claudeHooksEnv } from "../engine/agents/mod.ts";
import { describePolicy } from "../policy/mod.ts";
import { claudeCodeSnippet, codexSnippet, geminiSnippet, type Launch, mcpServersSnippet } from "./client_snippets.ts";

/** `tmuxwright doctor`: checks what the server needs and prints a client configuration snippet. */
export async function doctor(config: Readonly<Config>): Promise<number> {
  if (config.hostTarget !== null) return await (await import("./remote.ts")).doctorHost(config);
  let ok = true;
  const report = (pass: boolean, what: string) => {
    ok &&= pass;
    console.log(`${pass ? "ok  " : "FAIL"} ${what}`);
  };
  const version = await localTmuxVersion();
  if (version === null) report(false, `tmux: not found on PATH: ${INSTALL_HINT}`);
  else if (!supportedVersion(version)) report(false, `tmux version: ${version} is too old: ${INSTALL_HINT}`);
  else {
    const tested = testedRelease(version)
      ? "the suite runs on this release"
      : `not a release the suite runs on (${TESTED_RELEASES.join(", ")})`;
    report(true, `tmux version: ${version} (need ${OLDEST_TMUX} or newer; ${tested})`);
  }
  const server = await tmuxOneShot([...config.socketArgs, "list-sessions", "-F", "#{socket_path}"]);
  console.log(
    `info tmux server ${config.socketArgs.join(" ") || "(default)"}: ${
      server.code === 0 ? `running at ${server.stdout.split("\n")[0]}` : "not running (started on first use)"
    }`,
  );
  try {
    await Deno.mkdir(config.stateDir, { recursive: true, mode: 0o700 });
    const probe = `${config.stateDir}/.doctor-${Deno.pid}`;
    await Deno.writeTextFile(probe, "ok");
    await Deno.remove(probe);
    report(true, `state directory writable: ${config.stateDir}`);
  } catch (error) {
    report(false, `state directory ${config.stateDir}: ${(error as Error).message}`);
  }
  try {
    const backend = await probeBackend(config.processFacts, config.stateDir);
    const how = config.processFacts !== null
      ? "forced by TMUXWRIGHT_PROCESS_FACTS"
      : backend === "proc"
      ? "/proc is readable"
      : "no /proc here: read with ps";
    report(true, `process facts: ${backend} (${how})`);
  } catch (error) {
    report(false, `process facts: tmux could not run the check: ${(error as Error).message}`);
  }
  const inForce = paneEnvironment(config.paneEnv, claudeHooksEnv(config.stateDir)); // as a pane on this machine has it
  const paneEnv = Object.entries(inForce).map(([key, value]) => `${key}=${value}`);
  console.log(`info agents' panes start with: ${paneEnv.join(" ") || "(nothing set)"} (--pane-env changes it)`);
  console.log(`info command policy: ${config.policy ? describePolicy(config.policy) : "none (every command may run)"}`);
  printSnippets(launchCommand());
  return ok ? 0 : 1;
}

/**
 * How a client starts this very tmuxwright: the npm package with npx; the compiled binary by its
 * path; from a checkout (main.ts, the bundle `deno task start` runs from dist/start/server/, or
 * `deno task bundle`'s dist/tmuxwright.js), `deno task start` with that checkout's deno.json.
 */
export function launchCommand(main = Deno.mainModule): Launch {
  if (/\/node_modules\/tmuxwright\/server\/[^/]+$/.test(main)) return { command: "npx", args: ["-y", "tmuxwright"] };
  if (!main.startsWith("file:") || /deno-compile-/.test(main)) return { command: binaryPath(), args: [] };
  const root = /\/dist\/start\/server\/[^/]+$/.test(main) ? "../../../" : /\/dist\/[^/]+$/.test(main) ? "../" : "./";
  const config = new URL(`${root}deno.json`, main);
  return { command: "deno", args: ["task", "-q", "--config", decodeURIComponent(config.pathname), "start"] };
}

function binaryPath(): string {
  try {
    return Deno.execPath();
  } catch {
    return "tmuxwright"; // no read permission for its own path: the name on PATH
  }
}

/** How each client starts this tmuxwright (docs/install.md says why each setting is there). */
function printSnippets(launch: Launch): void {
  console.log(`
Claude Code (\`claude -p\` also needs --allowedTools mcp__tmuxwright):
  ${claudeCodeSnippet(launch)}

Codex CLI (~/.codex/config.toml):
${codexSnippet(launch)}

Gemini CLI (~/.gemini/settings.json; \`gemini -p\` runs in a trusted folder: GEMINI_CLI_TRUST_WORKSPACE=true):
${geminiSnippet(launch)}

Cursor (.cursor/mcp.json), Claude Desktop (claude_desktop_config.json):
${mcpServersSnippet(launch)}`);
}
