import assert from "node:assert/strict";
import { PodmanLab } from "./helpers/podman.ts";
import { attachOnTerminal, labCli, type LabHosts, labServer } from "./helpers/lab_server.ts";

/** doctor --host and attach --host for a container host (a real Podman container), and its runtime missing. */

/** main.ts with the start task's permissions and these hosts; `path` replaces PATH (a machine without podman). */
function tmuxwright(lab: PodmanLab, hosts: LabHosts, args: string[], path?: string) {
  return labCli(lab, hosts, args, path ? { PATH: path } : {});
}

/** A PATH with tmux, sh and deno but no podman or docker (they share /usr/bin with tmux here). */
async function pathWithoutRuntimes(lab: PodmanLab): Promise<string> {
  const dir = `${lab.dir}/bin`;
  await Deno.mkdir(dir, { recursive: true });
  for (const program of ["tmux", "sh", "bash", "deno"]) {
    const found = ["/usr/bin", "/usr/local/bin"].map((d) => `${d}/${program}`)
      .find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      });
    await Deno.symlink(found!, `${dir}/${program}`);
  }
  return dir;
}

Deno.test({
  name: "doctor --host and attach --host for a Podman container; the runtime missing",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await using lab = await PodmanLab.start();
    const [dev, bare] = await Promise.all([lab.container("dev"), lab.container("bare", { tmux: false })]);
    const hosts = { dev: `podman://${dev}`, bare: `podman://${bare}` };

    await t.step("doctor --host checks podman, the container and its tmux", async () => {
      const ok = await tmuxwright(lab, hosts, ["doctor", "--host", "dev"]);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, /^ok {3}podman: podman version \d/m);
      assert.match(ok.stdout, new RegExp(`^info host dev: podman exec ${dev} \\(podman://${dev}\\)$`, "m"));
      assert.match(ok.stdout, new RegExp(`^ok {3}connection: podman exec reached container ${dev}$`, "m"));
      assert.match(ok.stdout, /^ok {3}tmux on dev: 3\.\d\w* \(need 3\.2 or newer\), server \/tmp\/tmux-0\/default/m);
      assert.match(ok.stdout, /^ok {3}commands on dev through the connection/m);
      // The doctor's own session is gone afterwards.
      const sessions = await lab.tmux(dev, "list-sessions", "-F", "#{session_name}");
      assert.ok(!sessions.stdout.includes("tmuxwright-link-doctor"), sessions.stdout);
      const noTmux = await tmuxwright(lab, hosts, ["doctor", "--host", "bare"]);
      assert.equal(noTmux.code, 1);
      assert.match(
        noTmux.stdout,
        new RegExp(`^FAIL TMUX_UNAVAILABLE: tmux is not installed .* container "${bare}"`, "m"),
      );
      assert.match(noTmux.stdout, /^ {5}Add tmux 3\.2 or newer to the image/m);
    });

    await t.step(
      "the runtime's CLI missing: doctor says so, the server starts and the first call says so",
      async () => {
        const path = await pathWithoutRuntimes(lab);
        const doctor = await tmuxwright(lab, hosts, ["doctor", "--host", "dev"], path);
        assert.equal(doctor.code, 1, doctor.stdout + doctor.stderr);
        assert.match(doctor.stdout, /^FAIL podman: not installed or not on PATH$/m);
        await using server = await labServer(lab, hosts, { env: { PATH: path } });
        const error = await server.callError("create_pane", { host: "dev" });
        assert.match(
          error,
          /^HOST_UNREACHABLE: Host "dev" \(podman:\/\/[^)]+\) is unreachable: podman is not installed/,
        );
        assert.match(error, /Install podman where tmuxwright runs/);
      },
    );

    await t.step("attach --host lists the container's workspaces and attaches read-only with exec -it", async () => {
      const none = await tmuxwright(lab, hosts, ["attach", "--host", "dev", "--list"]);
      assert.equal(none.code, 1);
      assert.match(none.stderr, /No tmuxwright workspace is running on host dev/);
      await lab.tmux(dev, "-f", "/dev/null", "new-session", "-d", "-s", "tmuxwright-4242");
      const listed = await tmuxwright(lab, hosts, ["attach", "--host", "dev", "--list"]);
      assert.match(listed.stdout, /^tmuxwright-4242 /m);
      // Not on a terminal: the command a person would run.
      const printed = await tmuxwright(lab, hosts, ["attach", "--host", "dev"]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(
        printed.stdout.trim(),
        `podman exec -i -t --detach-keys= ${dev} sh -c 'tmux attach-session -r -t =tmuxwright-4242'`,
      );

      // On a terminal (a local tmux pane): a read-only client appears in the container's tmux.
      const clients = await attachOnTerminal(
        lab,
        hosts,
        "dev",
        "tmuxwright-4242 1",
        async () => (await lab.tmux(dev, "list-clients", "-F", "#{session_name} #{client_readonly}")).stdout,
      );
      assert.match(clients, /^tmuxwright-4242 1$/m);
    });
  },
});
