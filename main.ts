import { ConfigError, helpText, loadConfig } from "./src/config.ts";
import { serveStdio } from "./src/transports/stdio.ts";
import { HttpStartError, serveHttpMode } from "./src/transports/http.ts";
import { runBridge } from "./src/transports/bridge.ts";
import { HttpConfigError } from "./src/http/mod.ts";
import { attach } from "./src/cli/attach.ts";
import { doctor } from "./src/cli/doctor.ts";
import { VERSION } from "./src/version.ts";

async function main(argv: string[]): Promise<number | null> {
  // The bridge reads the old bridge's environment and flags (its --http is a switch, not a port).
  if (argv[0] === "bridge") return await runBridge(argv.slice(1));
  const config = loadConfig(argv);
  switch (config.command) {
    case "help":
      console.log(helpText());
      return 0;
    case "version":
      console.log(`tmuxwright ${VERSION}`);
      return 0;
    case "attach":
      return await attach(config);
    case "doctor":
      return await doctor(config);
    case "serve":
      if (config.http) {
        await serveHttpMode(config);
        return null; // serves until SIGINT/SIGTERM
      }
      await serveStdio(config);
      return null; // keeps running until stdin closes or a signal arrives
  }
}

if (import.meta.main) {
  try {
    const code = await main(Deno.args);
    if (code !== null) Deno.exit(code);
  } catch (error) {
    // A start-up failure is one line naming the problem and the fix, never a stack trace.
    const known = error instanceof ConfigError || error instanceof HttpConfigError || error instanceof HttpStartError;
    const message = known
      ? error.message
      : `Cannot start: ${(error as Error)?.message ?? String(error)}; run tmuxwright doctor to check the set-up`;
    console.error(`tmuxwright: ${message.replaceAll("\n", " ")}`);
    Deno.exit(2);
  }
}
