/**
 * How each agent CLI is started in a tmuxwright pane for the agent tests (tests/agents_*_test.ts):
 * the pinned client (agent_clients.ts), a home of its own with what a person who used it before
 * has there (onboarding done, this folder trusted, the stand-in as its model API), and the
 * command line that asks before a tool runs. `create_pane` takes the result as it is.
 */
import { clientCommand } from "./agent_clients.ts";

export interface AgentPane {
  command: string;
  env: Record<string, string>;
  cwd: string;
}

/** A home and a project folder in `dir` (made here), the common part of every CLI's set-up. */
async function folders(dir: string): Promise<{ home: string; project: string }> {
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  await Deno.mkdir(home, { recursive: true });
  await Deno.mkdir(project, { recursive: true });
  return { home, project };
}

/** Claude Code in manual permission mode (every tool asks), its Messages API the stand-in at `url`. */
export async function claudePane(dir: string, url: string): Promise<AgentPane> {
  const { home, project } = await folders(dir);
  const key = "sk-stand-in-0123456789abcdefghij";
  await Deno.writeTextFile(
    `${home}/.claude.json`,
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: "dark",
      customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: [] } },
    }),
  );
  return {
    command: `${await clientCommand("claude")} --permission-mode manual`,
    env: {
      HOME: home,
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: key,
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
    cwd: project,
  };
}

/** Codex CLI asking before commands (`-a on-request`), its Responses API the stand-in at `url`. */
export async function codexPane(dir: string, url: string): Promise<AgentPane> {
  const { home, project } = await folders(dir);
  await Deno.mkdir(`${home}/.codex`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.codex/config.toml`,
    [
      'model = "stand-in"',
      'model_provider = "standin"',
      "[model_providers.standin]",
      'name = "stand-in"',
      `base_url = "${url}/v1"`,
      'wire_api = "responses"',
      'env_key = "STANDIN_API_KEY"',
      "",
    ].join("\n"),
  );
  return {
    // Without its shared background server, which would outlive the test (a daemon of its own session).
    command: `${await clientCommand("codex")} --no-daemon -a on-request`,
    env: { HOME: home, CODEX_HOME: `${home}/.codex`, STANDIN_API_KEY: "stand-in" },
    cwd: project,
  };
}

/**
 * Gemini CLI signed in with an API key, its API the stand-in at `url`, this folder trusted; in
 * colour, or under NO_COLOR (its input box is drawn otherwise), whatever the test's environment.
 */
export async function geminiPane(dir: string, url: string, colour: "colour" | "NO_COLOR"): Promise<AgentPane> {
  const { home, project } = await folders(dir);
  await Deno.mkdir(`${home}/.gemini`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.gemini/settings.json`,
    JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }),
  );
  const colourEnv = colour === "colour" ? "-u NO_COLOR" : "NO_COLOR=1";
  return {
    // A model named: no routing requests to the stand-in. Not headless, whatever the runner sets:
    // Gemini CLI 0.61 takes CI=true or GITHUB_ACTIONS=true for a CI job and exits 42 at once (no
    // prompt given), which no person at a terminal sees.
    command: `env -u CI -u GITHUB_ACTIONS ${colourEnv} ${await clientCommand("gemini")} -m gemini-2.5-flash`,
    env: {
      HOME: home,
      GEMINI_API_KEY: "stand-in",
      GOOGLE_GEMINI_BASE_URL: url,
      GEMINI_CLI_TRUST_WORKSPACE: "true",
    },
    cwd: project,
  };
}

/**
 * What the agent CLIs of a test leave running when their tmux server ends goes with the test:
 * every process of a pane's process group (the pane's process leads it; Gemini CLI's relaunched
 * child outlives the hang-up), and any agent CLI process started from the test's directory.
 * `await using` it before the server, so it ends after the server has.
 */
export class AgentProcesses implements AsyncDisposable {
  readonly #groups = new Set<number>();
  /** The test's directory (the server's), once known. */
  dir: string | null = null;

  /** The process of a pane an agent CLI runs in. */
  add(panePid: number): void {
    this.#groups.add(panePid);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    const out = await new Deno.Command("ps", { args: ["-eo", "pid=,pgid=,args="], stdout: "piped" }).output();
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
      const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
      if (!match) continue;
      const [pid, group, args] = [Number(match[1]), Number(match[2]), match[3]];
      const agent = this.dir !== null && args.includes(`${this.dir}/`) && /\b(?:claude|codex|gemini)\b/.test(args);
      if (pid === Deno.pid || !(this.#groups.has(group) || agent)) continue;
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone meanwhile */ }
    }
  }
}
