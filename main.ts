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
    if (error instanceof ConfigError) {
      console.error(`tmuxwright: ${error.message}`);
      Deno.exit(2);
    }
    throw error;
  }
}
