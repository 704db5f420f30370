import { ConfigError, helpText, loadConfig } from "./src/config.ts";
import { VERSION } from "./src/version.ts";
import { dropUnusedLinkGrants } from "./src/config/hosts.ts";

// Each command loads only its own modules: a stdio server never loads the HTTP transport, the
// bridge or the CLI helpers (start-up time is spent loading modules; docs/BENCHMARKS.md, Core).
async function main(argv: string[]): Promise<number | null> {
  // The bridge reads the old bridge's environment and flags (its --http is a switch, not a port).
  if (argv[0] === "bridge") {
    dropUnusedLinkGrants([]); // the bridge never reaches other hosts
    return await (await import("./src/transports/bridge.ts")).runBridge(argv.slice(1));
  }
  const config = loadConfig(argv);
  dropUnusedLinkGrants(config.hosts);
  switch (config.command) {
    case "help":
      console.log(helpText());
      return 0;
    case "version":
      console.log(`tmuxwright ${VERSION}`);
      return 0;
    case "attach":
      return await (await import("./src/cli/attach.ts")).attach(config);
    case "doctor":
      return await (await import("./src/cli/doctor.ts")).doctor(config);
    case "serve":
      refuseOldTmux();
      if (config.http) {
        await (await import("./src/transports/http.ts")).serveHttpMode(config);
        return null; // serves until SIGINT/SIGTERM
      }
      await (await import("./src/transports/stdio.ts")).serveStdio(config);
      return null; // keeps running until stdin closes or a signal arrives
  }
}

if (import.meta.main) {
  try {
    const code = await main(Deno.args);
    if (code !== null) Deno.exit(code);
  } catch (error) {
    // A start-up failure is one line naming the problem and the fix, never a stack trace.
    const known = error instanceof ConfigError || await httpStartError(error);
    const message = known
      ? (error as Error).message
      : `Cannot start: ${(error as Error)?.message ?? String(error)}; run tmuxwright doctor to check the set-up`;
    console.error(`tmuxwright: ${message.replaceAll("\n", " ")}`);
    Deno.exit(2);
  }
}

/**
 * A tmux older than 3.2 ends the server at start with one line; asked beside the server's own start,
 * so it costs the start nothing.
 */
function refuseOldTmux(): void {
  void import("./src/tmux/release.ts").then(({ oldTmuxRefusal }) => oldTmuxRefusal()).then((refusal) => {
    if (refusal === null) return;
    console.error(`tmuxwright: ${refusal}`);
    Deno.exit(2);
  });
}

/** An HTTP configuration or listen failure (those modules are loaded only to ask, on this error path). */
async function httpStartError(error: unknown): Promise<boolean> {
  try {
    const [{ HttpConfigError }, { HttpStartError }] = await Promise.all([
      import("./src/http/mod.ts"),
      import("./src/transports/http.ts"),
    ]);
    return error instanceof HttpConfigError || error instanceof HttpStartError;
  } catch {
    return false;
  }
}
