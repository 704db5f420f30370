import assert from "node:assert/strict";
import { TmuxServer } from "../src/tmux/server.ts";
import {
  atShellPrompt,
  type FactsBackend,
  probeBackend,
  ProcessFacts,
  type ProcState,
  readProcState,
  waitsForInput,
} from "../src/engine/facts/mod.ts";
import { tmuxAt, until } from "./helpers/harness.ts";

/**
 * The facts room on real programs in real panes, through both backends on the same machine: the
 * same questions get the same answers, and what one backend cannot know is null with its reason.
 */
const BACKENDS: readonly FactsBackend[] = ["proc", "ps"];
const LINUX = Deno.build.os === "linux";
/** macOS reports no wait channel: whether a sleeping process reads the terminal is unknown (null) there. */
const BLIND = Deno.build.os === "darwin";
const BASH = "env -i PATH=/usr/bin:/bin TERM=xterm-256color bash --norc --noprofile -i";

type Lab = Awaited<ReturnType<typeof lab>>;

async function lab() {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twf" });
  const socket = `${dir}/s`;
  await tmuxAt(socket, "-f", "/dev/null", "new-session", "-d", "-s", "hub", "cat");
  const tmux = new TmuxServer(["-S", socket], () => Promise.resolve("hub"));
  return {
    tmux,
    dir,
    /** A new window running `command`; its pane's first pid. */
    async pane(command = BASH): Promise<{ id: string; pid: number }> {
      const out = await tmuxAt(socket, "new-window", "-d", "-P", "-F", "#{pane_id} #{pane_pid}", command);
      const [id, pid] = out.stdout.trim().split(" ");
      return { id, pid: Number(pid) };
    },
    type: (id: string, text: string) => tmuxAt(socket, "send-keys", "-t", id, "-l", "--", `${text}\r`),
    async [Symbol.asyncDispose]() {
      await tmux.close();
      await tmuxAt(socket, "kill-server");
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function stateOf(facts: ProcessFacts, pid: number, terminal = false): Promise<ProcState> {
  return readProcState(await facts.look(pid, { terminal }), pid);
}

Deno.test("the default backend is asked of the host; doctor's probe gives the same answer", async () => {
  await using l = await lab();
  const expected: FactsBackend = (await tmuxAt(`${l.dir}/s`, "run-shell", "[ -r /proc/self/stat ]")).code === 0
    ? "proc"
    : "ps";
  assert.equal(await new ProcessFacts(l.tmux, l.dir).backend(), expected);
  assert.equal(await probeBackend(null, l.dir), expected);
  assert.equal(await probeBackend("ps", l.dir), "ps");
  assert.equal(await new ProcessFacts(l.tmux, l.dir, "ps").backend(), "ps");
  assert.deepEqual([...Deno.readDirSync(l.dir)].map((e) => e.name), ["s"], "the probe's server is gone");
});

for (const backend of BACKENDS) {
  const name = `${backend}: a shell at its prompt, a read builtin, a sleeping program, a pipeline's pager`;
  Deno.test({ name, ignore: backend === "proc" && !LINUX }, async () => {
    await using l = await lab();
    const facts = new ProcessFacts(l.tmux, l.dir, backend);
    const { id, pid } = await l.pane();
    const prompt = await until(() => stateOf(facts, pid), (s) => s.fgCommand === "bash" && atShellPrompt(s));
    assert.equal(prompt.fgPid, pid);
    assert.equal(waitsForInput(prompt), false);

    // Without a wait channel a `read` builtin looks like the prompt: nothing to wait for on macOS.
    if (!BLIND) await readBuiltin(l, facts, id, pid, backend);

    await l.type(id, "sleep 30");
    const sleeping = await until(() => stateOf(facts, pid), (s) => s.fgCommand === "sleep");
    assert.notEqual(sleeping.fgPid, pid);
    assert.equal(sleeping.waitingForInput, BLIND ? null : false, JSON.stringify(sleeping));
    assert.equal(sleeping.fgCmdline, "sleep 30");
    // SIGTERM reaches the foreground group only: the shell comes back to its prompt.
    await facts.signalForeground(pid, "TERM");
    await until(() => stateOf(facts, pid), (s) => s.fgPid === pid && atShellPrompt(s));

    // The pipeline's first command ends: the pager behind the shell is the one that reads.
    await l.type(id, "sleep 0.3 | less");
    const paging = await until(() => stateOf(facts, pid), (s) => s.inputCommand === "less" && s.fgPid === pid, 5000);
    assert.equal(paging.waitingForInput, BLIND ? null : true, JSON.stringify(paging));
    assert.equal(atShellPrompt(paging), false);
  });

  const named = `${backend}: a name with spaces, the terminal's modes, a gone process`;
  Deno.test({ name: named, ignore: !LINUX }, async () => {
    await using l = await lab();
    const facts = new ProcessFacts(l.tmux, l.dir, backend);
    // prctl(PR_SET_NAME): the kernel's name for the process holds spaces, as "tmux: client" does.
    const code = 'import ctypes; ctypes.CDLL(None).prctl(15, b"a b  c", 0, 0, 0); input()';
    const { pid } = await l.pane(`/usr/bin/python3 -c '${code}'`);
    const state = await until(() => stateOf(facts, pid, true), (s) => s.fgCommand === "a b  c");
    assert.equal(state.fgCmdline, `/usr/bin/python3 -c ${code}`);
    assert.equal(state.waitingForInput, true, JSON.stringify(state));
    assert.equal(state.rawTerminal, false, "input() reads a line: the terminal stays canonical");
    const look = await facts.look(pid);
    assert.equal(look.backend, backend);
    assert.equal(look.ran, true);
    assert.deepEqual(look.facts.get(pid)?.state, "S");

    const short = await l.pane("sh -c 'exec sleep 0.2'");
    const gone = await until(() => facts.look(short.pid), (g) => !g.facts.has(short.pid), 5000);
    assert.equal(gone.ran, true);
    assert.equal(readProcState(gone, short.pid).reason, "the pane's process is gone");
  });
}

// What macOS's ps reports for the same processes: every field but the wait channel ("-" for all).
Deno.test(
  { name: "ps with no wait channel (as on macOS): unknown, never guessed; a script's child is in front" },
  async () => {
    await using l = await lab();
    const facts = new ProcessFacts(l.tmux, l.dir, "ps");
    const blind = async (pid: number) => {
      const look = await facts.look(pid);
      for (const [key, fact] of look.facts) look.facts.set(key, { ...fact, wchan: null });
      return readProcState(look, pid);
    };
    const { id, pid } = await l.pane();
    const prompt = await until(() => blind(pid), (s) => s.fgCommand === "bash" && s.fgPid === pid);
    assert.equal(prompt.waitingForInput, null);
    assert.match(prompt.reason, /^ps: no wait channel reported/);
    assert.equal(atShellPrompt(prompt), true, "a shell alone in front, asleep: its prompt");
    assert.equal(waitsForInput(prompt), false);

    // A shell script running a program: the script is a shell in front, but its child is what runs.
    await l.type(id, "bash -c 'sleep 30; true'");
    const script = await until(() => blind(pid), (s) => s.inputCommand === "sleep");
    assert.equal(script.fgCommand, "bash");
    assert.notEqual(script.fgPid, pid);
    assert.equal(atShellPrompt(script), false, JSON.stringify(script));
    assert.equal(script.waitingForInput, null);
    await facts.signalForeground(pid, "KILL");
    await until(() => blind(pid), (s) => s.fgPid === pid);
  },
);

/** A `read` builtin: the shell reads the terminal itself, which is not its prompt. */
async function readBuiltin(l: Lab, facts: ProcessFacts, id: string, pid: number, backend: FactsBackend) {
  await l.type(id, "read x");
  const reading = await until(() => stateOf(facts, pid), (s) => s.waitingForInput === true);
  assert.equal(atShellPrompt(reading), false, JSON.stringify(reading));
  assert.equal(waitsForInput(reading), true);
  assert.match(reading.reason, backend === "proc" ? /^read\(2\) on the terminal \(fd 0\)$/ : /^ps wchan /);
  await l.type(id, "answer");
}
