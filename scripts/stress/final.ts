/**
 * The checks at the end, once every actor has ended its session: a fresh session is served (over
 * HTTP and by a new stdio server, which also reaps what dead servers left), nothing an ended
 * owner had is left in tmux (here and on the lab host), and every exact command's output is in a log.
 */
import type { Fleet } from "./fleet.ts";
import type { Ledger } from "./checks.ts";
import { type LeakWatch, ownedPanes } from "./leaks.ts";
import { Session } from "./session.ts";

export async function finalChecks(fleet: Fleet, ledger: Ledger, leaks: LeakWatch): Promise<void> {
  for (const via of ["http", "stdio"] as const) {
    let session: Session | null = null;
    try {
      session = via === "http" ? await Session.http(fleet) : await Session.stdio(fleet);
      const answer = await session.call("execute_command", { command: "echo fresh-session", timeout_ms: 20_000 });
      const ok = answer.kind === "ok" && answer.json.output === "fresh-session" && answer.json.exit_code === 0;
      if (!ok) ledger.violation("final", `a fresh ${via} session is not served`, answer);
    } catch (error) {
      ledger.violation("final", `a fresh ${via} session could not open: ${(error as Error).message}`);
    } finally {
      await session?.end();
    }
  }
  await leftovers(fleet, ledger);
  const expired = fleet.stderr.filter((line) => /expired after/.test(line)).length;
  console.log(`${expired} HTTP sessions expired idle on the server`);
  await leaks.sweep(true);
  await logsComplete(fleet, ledger);
}

/** Only the HTTP server's own hub may remain: every other pane and session belongs to an owner that ended. */
async function leftovers(fleet: Fleet, ledger: Ledger): Promise<void> {
  const hub = `tmuxwright-${fleet.httpPid}`;
  let left: string[] = [];
  // Ends are asynchronous; on the host a gone server's hub goes when its lease (20 s) has passed
  // and a live link renews its own (every 7 s): give them 45 s.
  for (let attempt = 0; attempt < 90; attempt++) {
    left = (await ownedPanes(fleet)).filter((p) => !(p.hub && (p.where !== "" || p.session === hub)))
      .map((p) => `${p.where}${p.id} (session ${p.session}, owner ${p.instance || "none"})`);
    if (left.length === 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  ledger.violation("final", `panes nobody owns are left in tmux: ${left.join(", ")}`);
}

async function logsComplete(fleet: Fleet, ledger: Ledger): Promise<void> {
  let all = "";
  for await (const path of files(`${fleet.dir}/state`)) {
    if (/\.log(\.\d+)?$/.test(path)) all += await Deno.readTextFile(path);
  }
  const missing = ledger.loggedTokens.filter((token) => !all.includes(token));
  if (missing.length > 0) {
    ledger.violation("final", `${missing.length} exact outputs are in no pane log: ${missing.slice(0, 10).join(", ")}`);
  }
}

async function* files(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* files(path);
    else if (entry.isFile) yield path;
  }
}
