import type { Config } from "../config.ts";
import { tmuxOneShot } from "../tmux/oneshot.ts";

/** `tmuxwright doctor`: checks what the server needs and prints a client configuration snippet. */
export async function doctor(config: Readonly<Config>): Promise<number> {
  if (config.hostTarget !== null) return await (await import("./remote.ts")).doctorHost(config);
  let ok = true;
  const report = (pass: boolean, what: string) => {
    ok &&= pass;
    console.log(`${pass ? "ok  " : "FAIL"} ${what}`);
  };
  try {
    const version = (await tmuxOneShot(["-V"])).stdout.trim();
    const match = /(\d+)\.(\d+)/.exec(version);
    const good = match !== null && (Number(match[1]) > 3 || (Number(match[1]) === 3 && Number(match[2]) >= 2));
    report(good, `tmux version: ${version} (need 3.2 or newer)`);
  } catch (error) {
    report(false, `tmux: ${(error as Error).message}`);
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
  console.log(
    `\nClaude Desktop / Cursor (JSON):\n${
      JSON.stringify({ mcpServers: { tmuxwright: { command: "tmuxwright", args: [] } } }, null, 2)
    }`,
  );
  console.log("\nClaude Code: claude mcp add tmuxwright -- tmuxwright");
  return ok ? 0 : 1;
}
