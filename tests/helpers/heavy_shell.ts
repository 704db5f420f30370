/**
 * A heavy shell, as many developers have one (pyenv, conda, nvm, direnv, starship): start-up files
 * that burn about half a second of CPU, and a prompt hook of about 20 ms that runs before every
 * prompt (bash `PROMPT_COMMAND`, zsh `precmd`, fish `fish_prompt`). Written into a test home:
 *
 *   const home = await heavyHome();            // or writeHeavyShell(existingHome)
 *   await TestServer.start({ env: { HOME: home, SHELL: "/bin/bash" } });
 *
 * The start-up cost is CPU time (the shell's own ticks, read from /proc), so a loaded machine makes
 * it longer in wall time, as it does real start-up files. The hook's loop is sized once per process
 * against the CPU clock. The hooks are installed the way pyenv-virtualenv installs its own: first in
 * `PROMPT_COMMAND` and `precmd_functions`, so they run before anything added later.
 */

export interface HeavyShellOptions {
  /** CPU burnt by the start-up files (default 500 ms). */
  startupMs?: number;
  /** CPU burnt by the prompt hook before each prompt (default 20 ms). */
  hookMs?: number;
}

/** Burns `$1` clock ticks of this process's CPU (utime + stime, fields 14 and 15 of /proc/PID/stat). */
const BURN_TICKS = `read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u s _ < /proc/$$/stat
start=$((u + s)); now=$start; n=0
while [ $((now - start)) -lt "$1" ]; do
  i=0; while [ $i -lt 100 ]; do i=$((i + 1)); done
  n=$((n + 1))
  read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u s _ < /proc/$$/stat; now=$((u + s))
done
echo $n
`;

/** Runs `$1` rounds of the same loop (sized from BURN_TICKS's count). */
const BURN_ROUNDS = `n=0
while [ $n -lt "$1" ]; do
  i=0; while [ $i -lt 100 ]; do i=$((i + 1)); done
  n=$((n + 1))
done
`;

const TICKS_PER_SECOND = 100; // Linux's USER_HZ
let roundsPerMs: Promise<number> | null = null;

/** Loop rounds per CPU millisecond on this machine (measured once: 200 ms of CPU). */
function calibrate(dir: string): Promise<number> {
  roundsPerMs ??= (async () => {
    const file = `${dir}/burn_ticks`;
    await Deno.writeTextFile(file, BURN_TICKS);
    const out = await new Deno.Command("sh", { args: [file, "20"], stdout: "piped" }).output();
    const rounds = Number(new TextDecoder().decode(out.stdout).trim());
    return rounds / 200;
  })();
  return roundsPerMs;
}

/** Writes the heavy start-up files of bash, zsh and fish into `home` (and the scripts they run). */
export async function writeHeavyShell(home: string, options: HeavyShellOptions = {}): Promise<void> {
  const startupTicks = Math.max(1, Math.round((options.startupMs ?? 500) * TICKS_PER_SECOND / 1000));
  const dir = `${home}/.heavy`;
  await Deno.mkdir(dir, { recursive: true });
  const hookRounds = Math.max(1, Math.round((options.hookMs ?? 20) * await calibrate(dir)));
  await Deno.writeTextFile(`${dir}/burn_ticks`, BURN_TICKS);
  await Deno.writeTextFile(`${dir}/burn_rounds`, BURN_ROUNDS);
  const startup = `command sh ${dir}/burn_ticks ${startupTicks} >/dev/null`;
  const hook = `command sh ${dir}/burn_rounds ${hookRounds}`;
  await Deno.writeTextFile(
    `${home}/.bashrc`,
    `${startup}\n__heavy_hook() { local s=$?; ${hook}; return $s; }\n` +
      `PROMPT_COMMAND="__heavy_hook;\${PROMPT_COMMAND-}"\n`,
  );
  await Deno.writeTextFile(
    `${home}/.zshrc`,
    `${startup}\n__heavy_hook() { ${hook} }\ntypeset -g -a precmd_functions\n` +
      `precmd_functions=(__heavy_hook $precmd_functions)\n`,
  );
  await Deno.mkdir(`${home}/.config/fish`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/.config/fish/config.fish`,
    `${startup}\nfunction fish_prompt\n    ${hook}\n    printf '%s> ' (prompt_pwd)\nend\n`,
  );
}

/** A new home directory in /tmp with the heavy start-up files; the caller removes it. */
export async function heavyHome(options: HeavyShellOptions = {}): Promise<string> {
  const home = await Deno.makeTempDir({ dir: "/tmp", prefix: "tw-heavy" });
  await writeHeavyShell(home, options);
  return home;
}
