import { ConfigError, helpText, loadConfig } from "./src/config.ts";
import { serveStdio } from "./src/transports/stdio.ts";
import { attach } from "./src/cli/attach.ts";
import { doctor } from "./src/cli/doctor.ts";
import { VERSION } from "./src/version.ts";

async function main(argv: string[]): Promise<number | null> {
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
    const message = error instanceof ConfigError
      ? error.message
      : `Cannot start: ${
        error instanceof Error ? error.message : String(error)
      }; run tmuxwright doctor to check the set-up`;
    console.error(`tmuxwright: ${message.replaceAll("\n", " ")}`);
    Deno.exit(2);
  }
}
