/**
 * Runs `during` while strace, attached to `pid`, tampers with its system calls as `filters` say
 * (`-e trace=… -e inject=…`): how a test holds a process back or makes a call fail or miss,
 * where the event it stands for cannot be made to happen on purpose.
 */
export async function whileTraced<T>(pid: number, filters: readonly string[], during: () => Promise<T>): Promise<T> {
  const strace = new Deno.Command("strace", {
    args: ["-p", String(pid), ...filters, "-o", "/dev/null"],
    stderr: "piped",
  }).spawn();
  const reader = strace.stderr.pipeThrough(new TextDecoderStream()).getReader();
  for (let text = ""; !text.includes("attached");) {
    const next = await reader.read();
    if (next.done) throw new Error(`strace did not attach: ${text}`);
    text += next.value;
  }
  void (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  try {
    return await during();
  } finally {
    strace.kill("SIGTERM");
    await strace.status;
  }
}
