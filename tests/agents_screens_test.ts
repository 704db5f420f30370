import assert from "node:assert/strict";
import { AGENT_CLIS, agentFor, echoes } from "../src/engine/agents/mod.ts";

// Each agent CLI's description read against screens the pinned versions drew in tmux panes
// (capture-pane, trailing blanks trimmed; captured while driving them through their stand-ins).
// The CLIs themselves are driven in tests/agents_*_test.ts; these keep the readings quick to check.

const cli = (id: string) => AGENT_CLIS.find((c) => c.id === id)!;
const RULE = "─".repeat(60);

const CLAUDE_IDLE = [
  " ▐▛███▛█   Claude Code v2.1.328",
  "❯ say hello please",
  "",
  "● You said: say hello please",
  "  That is all from the stand-in model.",
  "",
  "✻ Crunched for 1s · done 8:28 PM",
  "",
  "                                                  ◐ medium · /effort",
  RULE,
  "❯\u00a0",
  RULE,
  "  ⏸ manual mode on · ? for shortcuts · ← for agents",
];
const CLAUDE_WORKING = [
  "❯ say hello please",
  "",
  "✽ Flibbertigibbeting…",
  "",
  "                                                  ◐ medium · /effort",
  RULE,
  "❯\u00a0",
  RULE,
  "  ⏸ manual mode on · esc to interrupt · ← for agents",
];
const CLAUDE_STOP_HOOK = [
  ...CLAUDE_WORKING.slice(0, 2),
  "✻ Slithering… (running Stop hook · 0s)",
  ...CLAUDE_WORKING.slice(3),
];
const CLAUDE_ASKING = [
  "❯ please [tool] /tmp/ran",
  "",
  "● Touching a file",
  "  ⎿  $ touch /tmp/ran",
  "",
  RULE,
  " Bash command",
  " Touch a file",
  "╌".repeat(60),
  " touch /tmp/ran",
  "╌".repeat(60),
  " Do you want to proceed?",
  " ❯ 1. Yes",
  "   2. Yes, and always allow access to /tmp from this project",
  "   4. No",
  "",
  " Esc to cancel · Tab to amend",
];

const CODEX_IDLE = [
  "› say hello please",
  "",
  "",
  "• You said: say hello please",
  "  That is all from the stand-in model.",
  "",
  "  Worked for <1s • 20:33",
  "",
  "",
  "› Ask Codex to do anything",
  "",
  "  stand-in default · /tmp/project",
  "  ← for agents · ? for shortcuts                                   ⚠ 2 warnings · f2 to view",
];
const CODEX_STARTING = ["", "› Ask Codex to do anything", "", "  ? for shortcuts"];
const CODEX_WORKING = [
  "› say hello please",
  "",
  "• Working (0s • esc to interrupt)",
  "",
  "",
  ...CODEX_IDLE.slice(-4),
];
const CODEX_ASKING = [
  "› please [tool] /tmp/ran",
  "",
  "",
  "• Running touch /tmp/ran",
  "",
  "",
  "  Would you like to run the following command?",
  "",
  "  Reason: May I touch the file?",
  "",
  "  $ touch /tmp/ran",
  "",
  "",
  "› 1. Yes, proceed (y)",
  "  2. Yes, and don't ask again for commands that start with `touch /tmp/ran` (p)",
  "  3. No, and tell Codex what to do differently (esc)",
  "",
  "  Press enter to confirm or esc to cancel",
];

const GEMINI_FRAME = [
  "                                                                        ? for shortcuts",
  RULE,
  " Shift+Tab to accept edits",
  "",
  " >   Type your message or @path/to/file",
  "",
  " workspace (/directory)                 sandbox                 /model",
  " /tmp/project                           no sandbox              gemini-2.5-flash",
];
const GEMINI_IDLE = [
  "Tips for getting started:",
  " > first line",
  "   second line",
  "",
  "✦ You said: first line",
  "  second line",
  "  That is all from the stand-in model.",
  "",
  "",
  ...GEMINI_FRAME,
];
const GEMINI_STARTING = ["", "", ...GEMINI_FRAME];
/** The same screens under NO_COLOR: the box ruled above and below its input, the echo after `> `. */
const GEMINI_FRAME_NO_COLOR = GEMINI_FRAME.map((l) => l === "" ? RULE : l);
const GEMINI_IDLE_NO_COLOR = [
  ...GEMINI_IDLE.slice(0, -GEMINI_FRAME.length).map((l) => l.replace(/^ > /, "> ").replace(/^ {3}second/, "  second")),
  ...GEMINI_FRAME_NO_COLOR,
];
const GEMINI_WORKING = [
  "Tips for getting started:",
  " > say hello please",
  " ⠋ Thinking... (esc to cancel, 0s)                                   ? for shortcuts",
  ...GEMINI_FRAME.slice(1),
];
const GEMINI_ASKING = [
  " > please [tool] /tmp/ran",
  "",
  "╭────────────────────────────────────────────╮",
  "│ ? Shell  touch /tmp/ran                    │",
  "│ ╭────────────────────────────────────────╮ │",
  "│ │ touch /tmp/ran                         │ │",
  "│ ╰────────────────────────────────────────╯ │",
  "│ Allow execution of [Shell]?                │",
  "│                                            │",
  "│ ● 1. Allow once                            │",
  "│   2. Allow for this session                │",
  "│   3. No, suggest changes (esc)             │",
  "╰────────────────────────────────────────────╯",
];

Deno.test("agent CLIs are recognised by their command line, other programs are not", () => {
  const id = (cmdline: string) => agentFor(cmdline)?.id ?? null;
  assert.equal(id("claude --permission-mode manual"), "claude-code");
  assert.equal(id("/opt/node_modules/@anthropic-ai/claude-code/bin/claude.exe"), "claude-code");
  assert.equal(id("node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"), "claude-code");
  assert.equal(id("node /x/node_modules/.bin/codex -a on-request"), "codex");
  assert.equal(id("/usr/bin/node --max-old-space-size=12076 /x/node_modules/.bin/gemini -m m"), "gemini");
  for (const other of ["python3 -i -q", "node", "node server.js", "bash", "vim claude.md", "less gemini.log"]) {
    assert.equal(id(other), null, other);
  }
});

Deno.test("Claude Code's screen: idle, working, its Stop hooks running, asking; the reply cut from its frame", () => {
  const claude = cli("claude-code");
  assert.deepEqual(claude.read(CLAUDE_IDLE), { activity: "idle", question: null });
  assert.equal(claude.read(CLAUDE_WORKING).activity, "working");
  assert.equal(claude.read(CLAUDE_STOP_HOOK).activity, "idle");
  const asking = claude.read(CLAUDE_ASKING);
  assert.equal(asking.activity, "asking");
  assert.equal(
    asking.question,
    "Bash command\nTouch a file\ntouch /tmp/ran\nDo you want to proceed?\n❯ 1. Yes\n" +
      "  2. Yes, and always allow access to /tmp from this project\n  4. No\n\nEsc to cancel · Tab to amend",
  );
  assert.deepEqual(claude.reply(CLAUDE_IDLE), {
    text: "You said: say hello please\nThat is all from the stand-in model.",
    echo: "say hello please",
    ended: true,
  });
});

Deno.test("Codex CLI's screen: starting, idle, working, asking; the reply cut from its frame", () => {
  const codex = cli("codex");
  assert.equal(codex.read(CODEX_STARTING).activity, null, "a box under its logo is not one it reads");
  assert.equal(codex.read(CODEX_IDLE).activity, "idle");
  assert.equal(codex.read(CODEX_WORKING).activity, "working");
  const asking = codex.read(CODEX_ASKING);
  assert.equal(asking.activity, "asking");
  assert.equal(
    asking.question,
    "Would you like to run the following command?\n\nReason: May I touch the file?\n\n$ touch /tmp/ran\n\n" +
      "1. Yes, proceed (y)\n2. Yes, and don't ask again for commands that start with `touch /tmp/ran` (p)\n" +
      "3. No, and tell Codex what to do differently (esc)\n\nPress enter to confirm or esc to cancel",
  );
  assert.deepEqual(codex.reply(CODEX_IDLE), {
    text: "You said: say hello please\nThat is all from the stand-in model.",
    echo: "say hello please",
    ended: true,
  });
  assert.deepEqual(["⠹ project", "[ . ] Action Required | project", "project"].map((t) => codex.titleSays(t)), [
    "working",
    "asking",
    null,
  ]);
});

Deno.test("Gemini CLI's screen: starting, idle, working, asking; the reply cut from its frame; input left in its box", () => {
  const gemini = cli("gemini");
  assert.equal(gemini.read(GEMINI_STARTING).activity, null, "its box over an empty screen: still starting");
  assert.equal(gemini.read(GEMINI_IDLE).activity, "idle");
  assert.equal(gemini.read(GEMINI_WORKING).activity, "working");
  const asking = gemini.read(GEMINI_ASKING);
  assert.equal(asking.activity, "asking");
  assert.equal(
    asking.question,
    "? Shell  touch /tmp/ran\ntouch /tmp/ran\nAllow execution of [Shell]?\n\n● 1. Allow once\n" +
      "2. Allow for this session\n3. No, suggest changes (esc)",
  );
  assert.deepEqual(gemini.reply(GEMINI_IDLE), {
    text: "You said: first line\nsecond line\nThat is all from the stand-in model.",
    echo: "first line",
    ended: false,
  });
  assert.equal(gemini.inputLeft!(GEMINI_IDLE), false);
  const left = GEMINI_IDLE.map((l) => l.startsWith(" >   Type") ? " > say hello please" : l);
  assert.equal(gemini.inputLeft!(left), true);
  assert.equal(gemini.read(["", "", ...GEMINI_FRAME_NO_COLOR]).activity, null, "NO_COLOR: still starting");
  assert.equal(gemini.read(GEMINI_IDLE_NO_COLOR).activity, "idle", "NO_COLOR: idle");
  assert.equal(
    gemini.read([" > say it", ...GEMINI_WORKING.slice(2, 3), ...GEMINI_FRAME_NO_COLOR.slice(1)]).activity,
    "working",
  );
  assert.deepEqual(gemini.reply(GEMINI_IDLE_NO_COLOR), gemini.reply(GEMINI_IDLE), "NO_COLOR: the same reply");
  assert.equal(gemini.inputLeft!(GEMINI_IDLE_NO_COLOR), false);
  assert.equal(gemini.inputLeft!(GEMINI_IDLE_NO_COLOR.map((l) => l.startsWith(" >   Type") ? " > say hi" : l)), true);
  assert.deepEqual(
    ["✦  Working… (project)", "✋  Action Required (project)", "◇  Ready (project)"].map((t) => gemini.titleSays(t)),
    ["working", "asking", "idle"],
  );
});

Deno.test("an echo is of an input when it shows its first line's start, or a long paste's placeholder", () => {
  assert.equal(echoes("say hello please", "say hello please"), true);
  assert.equal(echoes("first line", "first line\nsecond line"), true);
  assert.equal(echoes("a very long input that the CLI wr", "a very long input that the CLI wrapped at the edge"), true);
  assert.equal(echoes("[Pasted text #1 +12 lines]", "x\n".repeat(13)), true);
  assert.equal(echoes("say hello again", "say hello please"), false);
  assert.equal(echoes(null, "say hello please"), false);
});
