import { freshStartBundle } from "./start_bundle.ts";

/**
 * What tmuxwright.sh runs in a checkout when a source is newer than the start bundle: checks the
 * bundle exactly against the sources (start_bundle.ts), rebuilds it with the runtime given as the
 * one argument, and prints the server's entry in it; prints nothing where none can be built (a
 * read-only checkout, a build error), and the shell then runs main.ts from source. The flags are
 * the shell's own (the rules of permissions.ts): this runs only when the sources changed.
 */
export async function startEntry(deno: string): Promise<string | null> {
  const root = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
  return await freshStartBundle(root, deno);
}

if (import.meta.main) {
  const [deno] = Deno.args;
  if (deno === undefined) {
    console.error("tmuxwright: launch.ts needs the deno runtime's path");
    Deno.exit(2);
  }
  await Deno.stdout.write(new TextEncoder().encode((await startEntry(deno)) ?? ""));
}
