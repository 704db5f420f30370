/** A policy file in a directory of its own, outside the test's (only the task's permission line grants it). */
export async function policyFile(policy: unknown): Promise<string> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "twp" });
  await Deno.writeTextFile(`${dir}/policy.json`, JSON.stringify(policy));
  return `${dir}/policy.json`;
}

export async function removePolicyFile(path: string): Promise<void> {
  await Deno.remove(path.replace(/\/policy\.json$/, ""), { recursive: true });
}
