/**
 * What a server that stopped answering is doing, from outside: its process and every descendant
 * (a tmux client it waits on, a shell it ran) with state and kernel wait channel, and its last
 * stderr lines. Printed once per server, beside the violation.
 */
export async function processTree(root: number): Promise<string[]> {
  const parents = new Map<number, number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    if (stat) parents.set(Number(entry.name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  }
  return await Promise.all(tree.map(async (pid) => {
    const read = (file: string) => Deno.readTextFile(`/proc/${pid}/${file}`).catch(() => "?");
    const [stat, wchan, cmdline] = await Promise.all([read("stat"), read("wchan"), read("cmdline")]);
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return `  ${pid} ${state} ${wchan} ${cmdline.replaceAll("\0", " ").slice(0, 300)}`;
  }));
}

/** Where a server's JavaScript is now: its inspector pauses it, reads the stack, and lets it go on. */
export async function jsStack(port: number): Promise<string[]> {
  const { V8Inspector } = await import("../../tests/helpers/v8_inspector.ts");
  const inspector = await V8Inspector.atPort(port, 3000);
  try {
    const paused = new Promise<
      { callFrames: { functionName: string; url: string; location: { lineNumber: number } }[] }
    >(
      (resolve) => {
        inspector.socket.addEventListener("message", (event) => {
          const message = JSON.parse(event.data as string);
          if (message.method === "Debugger.paused") resolve(message.params);
        });
      },
    );
    await inspector.send("Debugger.enable");
    await inspector.send("Debugger.pause");
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000));
    const stack = await Promise.race([paused, timeout]);
    if (stack === null) return ["  (the inspector did not pause it within 5 s)"];
    await inspector.send("Debugger.resume").catch(() => {});
    return stack.callFrames.slice(0, 25).map((frame) =>
      `  at ${frame.functionName || "(anonymous)"} ${frame.url.replace(/^file:\/\/.*?\/src\//, "src/")}:${
        frame.location.lineNumber + 1
      }`
    );
  } finally {
    inspector.socket.close();
  }
}
