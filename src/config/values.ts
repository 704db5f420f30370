import { ConfigError } from "./errors.ts";

/** Where `--http` listens. */
export interface Listen {
  hostname: string;
  port: number;
}

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** The tmux pane and server this process runs inside, from `TMUX` / `TMUX_PANE`. */
export interface Caller {
  socketPath: string;
  serverPid: number;
  sessionId: string;
  paneId: string | null;
}

/** `--http` value: `PORT`, `HOST:PORT` or `[V6]:PORT`; the host defaults to 127.0.0.1. */
export function parseListen(value: string | undefined): Listen | null {
  if (value === undefined || value === "") return null;
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new ConfigError(`Invalid --http "${value}": expected [HOST:]PORT, e.g. 8765 or 127.0.0.1:8765`);
  }
  return { hostname: match[1]?.replace(/^\[|\]$/g, "") ?? "127.0.0.1", port };
}

export function tlsFiles(certFile: string | null, keyFile: string | null): TlsFiles | null {
  if ((certFile === null) !== (keyFile === null)) throw new ConfigError("Give both --tls-cert and --tls-key");
  return certFile && keyFile ? { certFile, keyFile } : null;
}

/** "65536", "64K", "64M", "1G" (binary units) → bytes; null when malformed. */
export function parseSize(text: string): number | null {
  const match = /^(\d{1,13})([KMGT]?)i?B?$/i.exec(text.trim());
  if (!match) return null;
  const unit = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }[match[2].toUpperCase()]!;
  return Number(match[1]) * unit;
}

export function validPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_.-]{0,32}$/.test(prefix)) {
    throw new ConfigError(`Invalid --tool-prefix "${prefix}": up to 32 letters, digits, '_', '.', '-'`);
  }
  return prefix;
}

/** `TMUX` is "socket_path,server_pid,session_index"; TMUX_PANE is "%N". */
export function parseCaller(tmux: string | undefined, pane: string | undefined): Caller | null {
  if (!tmux) return null;
  const match = /^(.*),(\d+),(\d+)$/.exec(tmux);
  if (!match) return null;
  return {
    socketPath: match[1],
    serverPid: Number(match[2]),
    sessionId: `$${match[3]}`,
    paneId: pane && /^%\d+$/.test(pane) ? pane : null,
  };
}

/** A `--pane-env` entry: KEY and its value, or null for `KEY=` (the default for KEY is dropped). */
export type PaneEnvEntry = [string, string | null];

/**
 * `--pane-env KEY=VALUE` values, or the environment's list: entries split at commas, `\,` keeps a
 * comma in a value. Values go to tmux's `-e`, never through a shell; control characters are refused.
 */
export function parsePaneEnv(values: readonly string[], fromEnv: boolean): PaneEnvEntry[] {
  const items = fromEnv
    ? values.flatMap((v) => v.split(/(?<!\\),/)).map((v) => v.replaceAll("\\,", ",")).filter((v) => v.trim() !== "")
    : values;
  const where = fromEnv ? "TMUXWRIGHT_PANE_ENV entry" : "--pane-env";
  return items.map((item) => {
    const match = /^([A-Za-z_][A-Za-z0-9_]{0,127})=(.*)$/s.exec(item);
    if (!match) throw new ConfigError(`Invalid ${where} "${item}": expected KEY=VALUE (KEY= drops a default)`);
    // deno-lint-ignore no-control-regex
    if (/[\x00-\x1f\x7f]/.test(match[2])) {
      throw new ConfigError(`Invalid ${where} "${match[1]}": the value holds control characters`);
    }
    return [match[1], match[2] === "" ? null : match[2]];
  });
}
