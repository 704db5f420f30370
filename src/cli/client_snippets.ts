/**
 * What each MCP client needs to start tmuxwright, for a given command line: `tmuxwright doctor`
 * prints these, docs/install.md shows them for `tmuxwright` (tests/doctor_test.ts checks that the
 * two agree), and tests/clients_*_test.ts configure the real clients from docs/install.md.
 */
export interface Launch {
  command: string;
  args: string[];
}

/** Claude Code: one command line. */
export function claudeCodeSnippet({ command, args }: Launch): string {
  return `claude mcp add tmuxwright -- ${[command, ...args].map(shellWord).join(" ")}`;
}

/**
 * Codex CLI (~/.codex/config.toml). `required`: `codex exec` gives optional MCP servers about a
 * second before its first turn; a required one is waited for. `default_tools_approval_mode`:
 * without it every call fails in `codex exec`, which cannot ask for approval.
 */
export function codexSnippet({ command, args }: Launch): string {
  return [
    "[mcp_servers.tmuxwright]",
    `command = ${JSON.stringify(command)}`,
    ...(args.length > 0 ? [`args = [${args.map((a) => JSON.stringify(a)).join(", ")}]`] : []),
    "required = true",
    'default_tools_approval_mode = "approve"',
  ].join("\n");
}

/**
 * Gemini CLI (~/.gemini/settings.json): `trust` lets its tools run without a confirmation, which
 * `gemini -p` cannot ask for (it then offers the model none of the server's tools).
 */
export function geminiSnippet(launch: Launch): string {
  return mcpServersJson(launch, { trust: true });
}

/** Cursor (.cursor/mcp.json), Claude Desktop (claude_desktop_config.json) and most other clients. */
export function mcpServersSnippet(launch: Launch): string {
  return mcpServersJson(launch, {});
}

function mcpServersJson({ command, args }: Launch, extra: Record<string, unknown>): string {
  const server = { command, ...(args.length > 0 ? { args } : {}), ...extra };
  return JSON.stringify({ mcpServers: { tmuxwright: server } }, null, 2);
}

/** A word as a POSIX shell reads it back (paths with spaces). */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
