/**
 * A person's tmux configuration, as the most shared ones set it (dotfiles, oh-my-tmux, tmux-sensible):
 * indexes from 1, renumbering and automatic renames, mouse and vi keys, a status line with shell
 * jobs every second, hooks that run scripts, remain-on-exit, another default-shell and a
 * default-command. Every hook runs a script (written to `dir`) that appends a line to `hooks.log`
 * there, so a test can see they ran. `tmuxwright` must give the same answers under it and leave the person's own sessions
 * and windows as they were.
 */
export function personTmuxConf(dir: string): string {
  Deno.writeTextFileSync(`${dir}/hook.sh`, `#!/bin/sh\necho "$1" >> ${dir}/hooks.log\n`, { mode: 0o755 });
  const hook = (name: string) => `run-shell -b "${dir}/hook.sh ${name}"`;
  return [
    "set -g base-index 1",
    "setw -g pane-base-index 1",
    "set -g renumber-windows on",
    "setw -g automatic-rename on",
    "setw -g allow-rename off",
    "set -g mouse on",
    "setw -g mode-keys vi",
    "set -g status-keys vi",
    'set -g default-terminal "screen-256color"',
    "set -sg escape-time 10",
    "set -g focus-events on",
    "set -g history-limit 50000",
    "set -g status-interval 1",
    `set -g status-right "#(date +%H:%M:%S) #(uptime | cut -d, -f1) #{session_name}"`,
    'set -g status-left "[#S] "',
    `set-hook -g session-created '${hook("session-created")}'`,
    `set-hook -g after-new-window '${hook("after-new-window")}'`,
    `set-hook -g pane-exited '${hook("pane-exited")}'`,
    "setw -g remain-on-exit on",
    // Not the $SHELL the panes' users have (bash): a person who set zsh here and kept bash as login shell.
    'set -g default-shell "/bin/zsh"',
    'set -g default-command "exec /bin/zsh"',
    "bind r source-file ~/.tmux.conf",
    "bind | split-window -h",
    "bind - split-window -v",
    "",
  ].join("\n");
}
