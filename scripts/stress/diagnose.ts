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
