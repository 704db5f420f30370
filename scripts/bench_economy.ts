/**
 * Agent economy: everyday tasks an agent does with a terminal, scripted against the real server
 * through the MCP SDK client, each answer checked against the truth. Per task: tool calls, result
 * tokens (o200k_base, the tokenizer of scripts/bench_tokens.ts, on each result's text) and wall
 * time. Goal: no task needs more than 2,000 result tokens or waits out a timeout.
 *
 * Run: deno run -A scripts/bench_economy.ts [--shell /bin/bash] [--entry dist/tmuxwright.js] [--main DIR/main.ts]
 * (`--entry` runs another build of the server, e.g. a bundle of an earlier version; `--main`
 * another checkout's main.ts with this checkout's permissions.)
 */
import { TestServer } from "../tests/helpers/harness.ts";
import { countTokens } from "./bench_tokens.ts";

const arg = (name: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const shell = arg("--shell") ?? "/bin/bash";
const entry = arg("--entry");
const main = arg("--main");

interface Tally {
  calls: number;
  tokens: number;
  biggest: number;
  /** A call that ended at its timeout: the task stalled. */
  stalls: string[];
}

/** Calls a tool and counts what the agent pays for it: one call, the result's tokens. */
function meter(server: TestServer, tally: Tally) {
  return async <T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T> => {
    const { text, isError } = await server.raw(name, args);
    tally.calls++;
    const tokens = countTokens(text);
    tally.tokens += tokens;
    tally.biggest = Math.max(tally.biggest, tokens);
    if (isError) throw new Error(`${name} failed: ${text}`);
    const result = JSON.parse(text) as T & { timed_out?: boolean; outcome?: string; trigger?: string };
    if (result.timed_out === true || result.outcome === "timeout" || result.trigger === "timeout") {
      tally.stalls.push(name);
    }
    return result;
  };
}

type Call = ReturnType<typeof meter>;

const TASKS: { name: string; run: (call: Call, dir: string) => Promise<void> }[] = [
  {
    name: "run a command: whole output and exit code",
    async run(call) {
      const r = await call<{ output: string; exit_code: number }>("execute_command", {
        command: "python3 -c \"import sys; [print(f'test_{i} ... ok') for i in range(1, 41)]; " +
          "print('test_41 ... FAILED'); sys.exit(1)\"",
      });
      check(r.exit_code === 1 && r.output.split("\n").length === 41 && r.output.endsWith("FAILED"), "test run");
    },
  },
  {
    name: "run a command printing 3,000 lines: exit code and first line",
    async run(call) {
      const r = await call<{ output: string; exit_code: number; total_lines: number }>("execute_command", {
        command: "echo 'build started'; seq 1 3000 | sed 's/^/compiling module /'",
      });
      const lines = r.total_lines ?? r.output.split("\n").length; // a server without a budget returns them all
      check(r.exit_code === 0 && r.output.startsWith("build started\n") && lines === 3001, "big output");
    },
  },
  {
    name: "start a dev server, hit it, see its log line, stop it",
    async run(call, dir) {
      const port = 8700 + Math.floor(Math.random() * 200);
      const started = await call<{ outcome: string; pane_id: string }>("start_process", {
        command: `cd '${dir}' && python3 -u -m http.server ${port} --bind 127.0.0.1`,
        name: "web",
        ready: "Serving HTTP",
        timeout_ms: 15_000,
      });
      check(started.outcome === "ready", "server ready");
      const hit = await call<{ output: string }>("execute_command", {
        command: `curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:${port}/`,
      });
      check(hit.output === "200", "HTTP 200");
      const line = await call<{ matched: boolean; line: string }>("wait_for_text", {
        pane_id: "web",
        pattern: '"GET / HTTP/1.1" 200',
        since: "screen",
        timeout_ms: 5_000,
      });
      check(line.matched, "log line");
      const stopped = await call<{ stopped: boolean }>("stop_process", { pane_id: "web" });
      check(stopped.stopped, "stopped");
    },
  },
  {
    name: "find which of four panes printed an error",
    async run(call) {
      const jobs = {
        api: "echo 'api listening on :3000'; sleep 30",
        worker: "echo 'worker: processed 12 jobs'; sleep 30",
        db: "echo 'db: ready'; sleep 30",
        cron: "python3 -c \"import json; json.loads('{')\"; sleep 30",
      };
      // Each started until its first line (a crash's first line is its traceback).
      for (const [name, command] of Object.entries(jobs)) await call("start_process", { command, name, ready: "." });
      const found = await call<{ matches: { name: string }[] }>("search_panes", {
        pattern: "Error|Traceback",
        regex: true,
      });
      const names = found.matches.map((m) => m.name);
      check(names.length === 1 && names[0] === "cron", `error pane: ${names}`);
    },
  },
  {
    name: "answer an interactive prompt",
    async run(call) {
      const asked = await call<{ outcome: string; pane_id: string }>("start_process", {
        command: `python3 -c "n=input('Project name? '); print('created', n)"`,
        ready: "^Project name\\? $",
        timeout_ms: 10_000,
      });
      check(asked.outcome === "ready" || asked.outcome === "timeout", "prompt seen");
      const reply = await call<{ trigger?: string; line: string }>("send_keys", {
        pane_id: asked.pane_id,
        text: "demo",
        wait: ["pattern:^created demo$"],
      });
      // A server without send-and-wait: a second call, which must look at the screen (the reply came first).
      const line = reply.trigger !== undefined ? reply.line : (await call<{ line: string }>("wait_for_text", {
        pane_id: asked.pane_id,
        pattern: "created demo",
        since: "screen",
        timeout_ms: 5_000,
      })).line;
      check(line === "created demo", "reply");
    },
  },
  {
    name: "a script that asks a question, then finishes",
    async run(call, dir) {
      await Deno.writeTextFile(
        `${dir}/deploy.sh`,
        "echo 'checking the build'\nread -p 'Deploy to staging? [y/N] ' a\n[ \"$a\" = y ] || exit 1\necho deployed\n",
      );
      const asked = await call<{ outcome?: string; output: string; pane_id: string }>("execute_command", {
        command: `bash '${dir}/deploy.sh'`,
      });
      if (asked.outcome !== "input") {
        // A server before questions waited out its timeout: the answer goes in with the command.
        const again = await call<{ output: string; exit_code: number }>("execute_command", {
          command: `echo y | bash '${dir}/deploy.sh'`,
        });
        return check(again.exit_code === 0 && again.output.endsWith("deployed"), "deployed (piped answer)");
      }
      check(asked.output.endsWith("Deploy to staging? [y/N]"), "question shown");
      const reply = await call<{ output: string; exit_code?: number }>("send_keys", {
        pane_id: asked.pane_id,
        text: "y",
        wait: ["shell"],
      });
      check(reply.exit_code === 0 && reply.output.endsWith("deployed"), "deployed");
    },
  },
  {
    name: "read what a process printed before it crashed",
    async run(call, dir) {
      await Deno.writeTextFile(
        `${dir}/job.py`,
        "import time\nfor i in range(5):\n    print(f'step {i}', flush=True)\n    time.sleep(0.05)\n" +
          "raise RuntimeError('disk full')\n",
      );
      const run = await call<{ outcome: string; exit_code: number; last_lines: string[] }>("start_process", {
        command: `python3 '${dir}/job.py'`,
        ready: "^done$",
        timeout_ms: 15_000,
      });
      check(run.outcome === "exited" && run.exit_code === 1, `exit: ${run.outcome} ${run.exit_code}`);
      check(run.last_lines.includes("step 4") && run.last_lines.at(-1) === "RuntimeError: disk full", "crash lines");
    },
  },
];

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`wrong answer: ${what}`);
}

const dir = await Deno.makeTempDir({ prefix: "tw-economy" });
console.log(`Agent economy (${shell}${entry ?? main ? `, ${entry ?? main}` : ""}): calls, result tokens, wall time\n`);
console.log("| task | calls | result tokens | largest result | wall ms | stalls |");
console.log("|---|---|---|---|---|---|");
let worst = 0;
for (const task of TASKS) {
  await using server = await TestServer.start({ env: { SHELL: shell }, ...(entry ? { entry } : {}), main });
  const tally: Tally = { calls: 0, tokens: 0, biggest: 0, stalls: [] };
  const started = performance.now();
  await task.run(meter(server, tally), dir);
  const wall = performance.now() - started;
  worst = Math.max(worst, tally.tokens);
  const stalls = tally.stalls.length === 0 ? "none" : tally.stalls.join(", ");
  console.log(
    `| ${task.name} | ${tally.calls} | ${tally.tokens} | ${tally.biggest} | ${wall.toFixed(0)} | ${stalls} |`,
  );
}
await Deno.remove(dir, { recursive: true });
console.log(`\nmost result tokens in one task: ${worst} (goal: at most 2,000)`);
