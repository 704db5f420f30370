import type { PaneEnvEntry } from "../../config.ts";

/**
 * What every owned pane starts with: no pager. An agent reads a command's output and a person
 * watching has the scrollback, while a pager waits for a key (git log, man, systemctl, psql, gh).
 * `LESS` is emptied: a user's `LESS=+F` or similar would keep a `less` started anyway open.
 */
export const PAGER_DEFAULTS: Readonly<Record<string, string>> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  MANPAGER: "cat",
  SYSTEMD_PAGER: "",
  PSQL_PAGER: "cat",
  GH_PAGER: "cat",
  LESS: "",
};

/**
 * The defaults (and `more` of them: a pane on this machine gets Claude Code's hooks) changed by
 * `--pane-env` (a null value drops the default for its key).
 */
export function paneEnvironment(
  entries: readonly PaneEnvEntry[],
  more: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env = { ...PAGER_DEFAULTS, ...more };
  for (const [key, value] of entries) {
    if (value === null) delete env[key];
    else env[key] = value;
  }
  return env;
}
