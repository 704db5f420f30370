import assert from "node:assert/strict";
import { startHttp } from "./helpers/http.ts";

Deno.test("stub bridge: create → list → send → capture → send_and_capture → kill", async () => {
  await using s = await startHttp();
  assert.deepEqual((await s.bridge({ action: "create_session", session: "b" })).body, {
    ok: true,
    action: "create_session",
    session: "b",
  });
  const generated = await s.bridge({ action: "create_session", cwd: "/tmp" });
  assert.equal(generated.status, 200);
  const name = (generated.body as { session: string }).session;
  assert.match(name, /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/);
  assert.deepEqual((await s.bridge({ action: "list_sessions" })).body, {
    ok: true,
    action: "list_sessions",
    sessions: ["b", name].sort(),
  });
  assert.deepEqual((await s.bridge({ action: "send_keys", session: "b", text: "echo hi", enter: true })).body, {
    ok: true,
    action: "send_keys",
    session: "b",
  });
  await s.bridge({ action: "send_keys", session: "b", keys: ["C-c", "Up"] });
  const capture = await s.bridge({ action: "capture_pane", session: "b" });
  assert.equal(capture.status, 200);
  assert.deepEqual((capture.body as { output: string }).output, "echo hi <Enter>\n<C-c> <Up>");
  assert.deepEqual((capture.body as { metadata: unknown }).metadata, {
    lines_requested: 200,
    lines_returned: 2,
    join_wrapped: false,
  });
  const last = await s.bridge({ action: "capture_pane", session: "b", lines: 1 });
  assert.equal((last.body as { output: string }).output, "<C-c> <Up>");
  const sent = await s.bridge({ action: "send_and_capture", session: "b", text: "ls", wait_for: "^ls$" });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal((sent.body as { output: string }).output, "echo hi <Enter>\n<C-c> <Up>\nls");
  assert.equal((sent.body as { metadata: { matched: boolean } }).metadata.matched, true);
  assert.deepEqual((await s.bridge({ action: "kill_session", session: "b" })).body, {
    ok: true,
    action: "kill_session",
    session: "b",
  });
  assert.deepEqual((await s.bridge({ action: "list_sessions" })).body, {
    ok: true,
    action: "list_sessions",
    sessions: [name],
  });
  const health = await fetch(`${s.url}/health`);
  assert.deepEqual(await health.json(), { ok: true, mode: "stub", backend: "stub", sessions: 1 });
});

Deno.test("stub bridge: text is typed as sent, leading spaces kept", async () => {
  await using s = await startHttp();
  await s.bridge({ action: "create_session", session: "py" });
  await s.bridge({ action: "send_keys", session: "py", text: "    return 1" });
  const capture = await s.bridge({ action: "capture_pane", session: "py" });
  assert.equal((capture.body as { output: string }).output, "    return 1");
});

const cases: [string, unknown, number, string][] = [
  ["not JSON", "{nope", 400, "Invalid JSON body."],
  ["empty body", "", 400, "Missing JSON request body."],
  ["not an object", "[1,2]", 400, "Request body must be a JSON object."],
  ["unknown action", { action: "rm_rf" }, 400, "Invalid action."],
  ["missing action", { session: "a" }, 400, "Invalid action."],
  ["capture without session", { action: "capture_pane" }, 400, "session is required for capture_pane"],
  ["kill without session", { action: "kill_session", session: "  " }, 400, "session is required for kill_session"],
  ["send without session", { action: "send_keys", text: "x" }, 400, "session is required for send_keys"],
  [
    "send without input",
    { action: "send_keys", session: "a" },
    400,
    "send_keys requires at least one of: text, keys, or enter=true.",
  ],
  [
    "send_and_capture with enter=false only",
    { action: "send_and_capture", session: "a", enter: false, text: "   ", keys: [" "] },
    400,
    "send_and_capture requires at least one of: text, keys, or enter=true.",
  ],
  [
    "bad session name",
    { action: "capture_pane", session: "-a" },
    400,
    "Invalid session name. Use 1-64 chars: letters, numbers, ., _, :, - (starting with a letter or number)",
  ],
  [
    "session name too long",
    { action: "capture_pane", session: "a".repeat(65) },
    400,
    "Invalid session name. Use 1-64 chars: letters, numbers, ., _, :, - (starting with a letter or number)",
  ],
  ["session not a string", { action: "capture_pane", session: 5 }, 400, "session must be a string."],
  ["bad key token", { action: "send_keys", session: "a", keys: ["C-c;kill"] }, 400, "Invalid key token: C-c;kill"],
  [
    "key too long",
    { action: "send_keys", session: "a", keys: ["k".repeat(49)] },
    400,
    `Invalid key token: ${"k".repeat(49)}`,
  ],
  ["keys not an array", { action: "send_keys", session: "a", keys: "Enter" }, 400, "keys must be an array of strings."],
  ["keys not strings", { action: "send_keys", session: "a", keys: [1] }, 400, "keys must contain only strings."],
  ["cwd relative", { action: "create_session", cwd: "tmp" }, 400, "cwd must be an absolute path."],
  ["cwd missing", { action: "create_session", cwd: "/nonexistent/dir" }, 400, "cwd does not exist: /nonexistent/dir"],
  ["cwd a file", { action: "create_session", cwd: "/etc/hostname" }, 400, "cwd is not a directory: /etc/hostname"],
  [
    "text too long",
    { action: "send_keys", session: "a", text: "x".repeat(8001) },
    400,
    "text is too long (max 8000 characters).",
  ],
  [
    "wait_for too long",
    { action: "send_and_capture", session: "a", enter: true, wait_for: "x".repeat(257) },
    400,
    "wait_for is too long (max 256 characters).",
  ],
  [
    "wait_for invalid",
    { action: "send_and_capture", session: "a", enter: true, wait_for: "(" },
    400,
    'wait_for must be a valid regular expression. Invalid wait_for "(": missing closing )',
  ],
  ["lines 0", { action: "capture_pane", session: "a", lines: 0 }, 400, "lines must be between 1 and 5000."],
  ["lines 5001", { action: "capture_pane", session: "a", lines: 5001 }, 400, "lines must be between 1 and 5000."],
  ["lines fractional", { action: "capture_pane", session: "a", lines: 1.5 }, 400, "lines must be an integer."],
  ["lines a string", { action: "capture_pane", session: "a", lines: "10" }, 400, "lines must be an integer."],
  [
    "timeout_ms 99",
    { action: "send_and_capture", session: "a", enter: true, timeout_ms: 99 },
    400,
    "timeout_ms must be between 100 and 120000.",
  ],
  [
    "timeout_ms 120001",
    { action: "send_and_capture", session: "a", enter: true, timeout_ms: 120001 },
    400,
    "timeout_ms must be between 100 and 120000.",
  ],
  ["wait_ms -1", { action: "capture_pane", session: "a", wait_ms: -1 }, 400, "wait_ms must be between 0 and 120000."],
  [
    "wait_ms 120001",
    { action: "capture_pane", session: "a", wait_ms: 120001 },
    400,
    "wait_ms must be between 0 and 120000.",
  ],
  [
    "text with NUL",
    { action: "send_keys", session: "a", text: "a\u0000b" },
    400,
    "text must not contain NUL characters.",
  ],
  ["enter not boolean", { action: "send_keys", session: "a", enter: "yes" }, 400, "enter must be a boolean."],
  ["unknown session", { action: "capture_pane", session: "ghost" }, 404, "Session not found: ghost"],
  ["send to unknown session", { action: "send_keys", session: "ghost", text: "x" }, 404, "Session not found: ghost"],
  ["kill unknown session", { action: "kill_session", session: "ghost" }, 404, "Session not found: ghost"],
  ["duplicate session", { action: "create_session", session: "a" }, 409, "Session already exists: a"],
  [
    "wait_for not matched",
    { action: "send_and_capture", session: "a", text: "x", wait_for: "never", timeout_ms: 100 },
    408,
    "wait_for regex did not match before timeout (100ms).",
  ],
];

Deno.test("stub bridge: every invalid request gets the contract's status and message", async () => {
  await using s = await startHttp();
  await s.bridge({ action: "create_session", session: "a" });
  for (const [what, body, status, error] of cases) {
    const response = await s.bridge(body);
    assert.deepEqual({ what, status: response.status, body: response.body }, {
      what,
      status,
      body: { ok: false, error },
    });
  }
  // Nothing above changed anything: the one session is still there and empty.
  assert.deepEqual((await s.bridge({ action: "list_sessions" })).body, {
    ok: true,
    action: "list_sessions",
    sessions: ["a"],
  });
  assert.equal(((await s.bridge({ action: "capture_pane", session: "a" })).body as { output: string }).output, "x");
});

Deno.test("stub bridge: null fields count as absent; defaults apply", async () => {
  await using s = await startHttp();
  const created = await s.bridge({ action: "create_session", session: null, cwd: null });
  assert.equal(created.status, 200);
  const session = (created.body as { session: string }).session;
  const sent = await s.bridge({ action: "send_and_capture", session, text: "hi", lines: null, wait_for: null });
  assert.equal(sent.status, 200);
  assert.equal((sent.body as { metadata: { lines_requested: number } }).metadata.lines_requested, 200);
});

Deno.test("stub bridge: send_and_capture wakes on another request's output, not a poll", async () => {
  await using s = await startHttp();
  await s.bridge({ action: "create_session", session: "w" });
  const waiting = s.bridge({
    action: "send_and_capture",
    session: "w",
    text: "start",
    wait_for: "^done$",
    timeout_ms: 10_000,
  });
  const started = performance.now();
  await s.bridge({ action: "send_keys", session: "w", text: "done" });
  const result = await waiting;
  assert.equal(result.status, 200);
  assert.equal((result.body as { output: string }).output, "start\ndone");
  assert.ok(performance.now() - started < 1000, "the wait ended when the line arrived");
});

Deno.test("stub bridge: wait_ms delays the capture", async () => {
  await using s = await startHttp();
  await s.bridge({ action: "create_session", session: "d" });
  const started = performance.now();
  const result = await s.bridge({ action: "capture_pane", session: "d", wait_ms: 300 });
  assert.equal(result.status, 200);
  assert.ok(performance.now() - started >= 290);
});

Deno.test("stub bridge: body over 256 KiB is 413 and changes nothing", async () => {
  await using s = await startHttp();
  const big = JSON.stringify({ action: "create_session", session: "big", pad: "x".repeat(256 * 1024) });
  const response = await s.bridge(big);
  assert.deepEqual({ status: response.status, body: response.body }, {
    status: 413,
    body: { ok: false, error: "Request body too large (max 262144 bytes)." },
  });
  assert.deepEqual((await s.bridge({ action: "list_sessions" })).body, {
    ok: true,
    action: "list_sessions",
    sessions: [],
  });
});

Deno.test("stub bridge: unknown path is 404, wrong method 405 with Allow", async () => {
  await using s = await startHttp();
  const missing = await fetch(`${s.url}/v2/tmux`, { method: "POST", body: "{}" });
  assert.deepEqual([missing.status, await missing.json()], [404, { ok: false, error: "Not found." }]);
  const get = await fetch(`${s.url}/v1/tmux`);
  assert.deepEqual([get.status, get.headers.get("allow"), await get.json()], [
    405,
    "POST, OPTIONS",
    { ok: false, error: "Method not allowed." },
  ]);
  const post = await fetch(`${s.url}/health`, { method: "POST" });
  assert.equal(post.status, 405);
  await post.body?.cancel();
});

Deno.test("stub bridge: a catastrophic wait_for answers 408 within its timeout while other requests are served", async () => {
  await using s = await startHttp();
  await s.bridge({ action: "create_session", session: "re" });
  const started = performance.now();
  const waiting = s.bridge({
    action: "send_and_capture",
    session: "re",
    text: "a".repeat(40) + "b",
    wait_for: "^(a+)+$",
    timeout_ms: 1500,
  });
  // A backtracking engine would hold the event loop here for minutes: health would not answer.
  const health = await fetch(`${s.url}/health`);
  assert.equal(health.status, 200);
  await health.body?.cancel();
  const answer = await waiting;
  assert.equal(answer.status, 408, JSON.stringify(answer.body));
  assert.ok(performance.now() - started < 10_000, "the wait ended at its timeout");
});
