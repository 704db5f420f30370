import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import { delimiter, dirname, join } from "node:path";

/**
 * Finds the Deno runtime for the npm package's bin, under Node: the `deno` npm package the package
 * depends on (pinned), else a `deno` on PATH of exactly that version. npm may have skipped install
 * scripts (`--ignore-scripts`, some `npx` set-ups), so the platform binary is looked up the way the
 * `deno` package's own bin does: `deno/deno` when its postinstall copied it there, else the
 * optional dependency `@deno/<os>-<arch>[-glibc]/deno`.
 */
export function findDeno(from: string, version: string, path = process.env.PATH ?? ""): string {
  const fromPackage = packagedDeno(from, version);
  if (fromPackage) return fromPackage;
  const onPath = pathDeno(path, version);
  if (onPath) return onPath;
  throw new Error(
    `Cannot find the Deno runtime ${version}: the npm package deno@${version} has no binary for ` +
      `${platformPackage()} here, and no deno ${version} is on PATH; reinstall tmuxwright with npm ` +
      `(optional dependencies included) or install it with npm install -g deno@${version}`,
  );
}

function packagedDeno(from: string, version: string): string | null {
  const require = createRequire(from);
  let denoDir: string;
  try {
    denoDir = dirname(require.resolve("deno/package.json"));
  } catch {
    return null;
  }
  if (JSON.parse(readFileSync(join(denoDir, "package.json"), "utf8")).version !== version) return null;
  const exe = platform() === "win32" ? "deno.exe" : "deno";
  if (executable(join(denoDir, exe))) return join(denoDir, exe);
  try {
    const target = dirname(require.resolve(`${platformPackage()}/package.json`, { paths: [denoDir] }));
    return executable(join(target, exe)) ? join(target, exe) : null;
  } catch {
    return null;
  }
}

/** `@deno/linux-x64-glibc`, `@deno/darwin-arm64`, … (musl has no build). */
function platformPackage(): string {
  return `@deno/${platform()}-${arch()}${platform() === "linux" ? "-glibc" : ""}`;
}

function pathDeno(path: string, version: string): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, platform() === "win32" ? "deno.exe" : "deno");
    if (!existsSync(candidate)) continue;
    const out = spawnSync(candidate, ["--version"], { encoding: "utf8" });
    return out.status === 0 && out.stdout.startsWith(`deno ${version} `) ? candidate : null;
  }
  return null;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
