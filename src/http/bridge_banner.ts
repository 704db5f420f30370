import type { BridgeSettings } from "./bridge_env.ts";

/**
 * The lines `tmuxwright bridge` prints on stdout once it listens. The first line keeps the old
 * bridge's wording (`tmux bridge listening on <scheme>://<host>:<port>`): scripts wait for it.
 */
export function bridgeBanner(settings: BridgeSettings, port: number): string[] {
  const host = settings.hostname.includes(":") ? `[${settings.hostname}]` : settings.hostname;
  const base = `${settings.tls ? "https" : "http"}://${host}:${port}`;
  const lines = [
    `tmux bridge listening on ${base}`,
    `mode: ${settings.mode}`,
    `health: ${base}/health`,
    `endpoint: ${base}/v1/tmux`,
    `allowed origins: ${settings.allowedOrigins.join(", ")}`,
  ];
  if (settings.mode === "tmux") {
    lines.push(`tmux socket: ${settings.socketPath} (watch with: tmux -S ${settings.socketPath} attach)`);
  } else {
    lines.push("stub mode: input is simulated in memory and nothing runs; TMUX_BRIDGE_MODE=tmux for real terminals");
  }
  if (settings.token) {
    lines.push("auth: bearer token required for POST /v1/tmux");
  } else {
    lines.push(
      "warning: TMUX_BRIDGE_TOKEN is not set; any local process and any page on an allowed origin can drive tmux",
    );
  }
  return lines;
}
