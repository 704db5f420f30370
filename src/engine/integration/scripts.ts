/**
 * The start-up files of the shells the server starts (see README.md). Each runs the user's own
 * start-up files first, then, when the pane's nonce is in the environment (it is unset at once,
 * so no program started in the pane inherits it), installs hooks that print marks (marks.ts):
 * `S;SEQ` before a command runs, `E;SEQ;STATUS` right after it ends, `P;PID` at the end of the
 * prompt, `C` on a continuation prompt, and `N` once when this shell cannot take them. A key sequence (`ACCEPT_KEY`) is bound to accepting the
 * line, so a user's rebinding of Enter does not matter.
 */

/** The key sequence bound to "accept the line" in integrated bash, zsh and fish. */
export const ACCEPT_KEY = "\x1b[6973~";

export const BASH_RC = `# tmuxwright shell integration for bash: your own start-up files run first.
if [ -n "\${TMUXWRIGHT_BASH_LOGIN-}" ]; then
  unset TMUXWRIGHT_BASH_LOGIN
  [ -r /etc/profile ] && . /etc/profile
  if [ -r ~/.bash_profile ]; then . ~/.bash_profile
  elif [ -r ~/.bash_login ]; then . ~/.bash_login
  elif [ -r ~/.profile ]; then . ~/.profile
  fi
else
  [ -r ~/.bashrc ] && . ~/.bashrc
fi
__tw_n=\${TMUXWRIGHT_SHELL_MARKS-}
unset TMUXWRIGHT_SHELL_MARKS
if [ -n "$__tw_n" ] && (( BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] < 404 )); then
  printf '\\033]6973;%s;N\\007' "$__tw_n" # no PS0 before bash 4.4: commands are typed in a wrapper line
elif [ -n "$__tw_n" ]; then
  __tw_c=0
  # PS0 is printed after a line is read, before it runs; $((...)) counts the commands.
  __tw_s='\\e]6973;'"$__tw_n"';S;$((++__tw_c))\\a'
  __tw_p='\\[\\e]6973;'"$__tw_n;P;$$"'\\a\\]'
  __tw_cm='\\[\\e]6973;'"$__tw_n"';C\\a\\]'
  __tw_pre() {
    local s=$?
    printf '\\033]6973;%s;E;%s;%s\\007' "$__tw_n" "$__tw_c" "$s"
    return $s
  }
  # Runs last before each prompt: prompt strings set by other hooks keep their marks.
  __tw_post() {
    local s=$?
    case $PS1 in *"$__tw_p"*) ;; *) PS1=$PS1$__tw_p ;; esac
    case $PS0 in *"$__tw_s") ;; *) PS0=\${PS0//"$__tw_s"/}$__tw_s ;; esac
    case $PS2 in "$__tw_cm"*) ;; *) PS2=$__tw_cm$PS2 ;; esac
    set +H
    if [[ \${PROMPT_COMMAND@a} != *a* && $PROMPT_COMMAND != __tw_pre$'\\n'*$'\\n'__tw_post ]]; then
      local pc=\${PROMPT_COMMAND//__tw_pre/:}
      PROMPT_COMMAND=__tw_pre$'\\n'\${pc//__tw_post/:}$'\\n'__tw_post
    fi
    return $s
  }
  if [[ \${PROMPT_COMMAND@a} == *a* ]]; then
    PROMPT_COMMAND=(__tw_pre "\${PROMPT_COMMAND[@]}" __tw_post)
  else
    PROMPT_COMMAND=__tw_pre$'\\n'\${PROMPT_COMMAND:-:}$'\\n'__tw_post
  fi
  case ":\${HISTCONTROL-}:" in *:ignorespace:* | *:ignoreboth:*) ;; *) HISTCONTROL=\${HISTCONTROL:+$HISTCONTROL:}ignorespace ;; esac
  # A pasted command is drawn once, as typed (highlighting it redraws it, which a log shows twice).
  bind 'set enable-bracketed-paste on' 2>/dev/null
  bind 'set enable-active-region off' 2>/dev/null
  for __tw_m in emacs vi-insert vi-command; do bind -m $__tw_m '"\\e[6973~": accept-line' 2>/dev/null; done
  unset __tw_m
  __tw_post
fi
`;

/** zsh reads these from ZDOTDIR, which points here; each reads the user's file from their own ZDOTDIR. */
export const ZSH_FILES: Record<string, string> = {
  ".zshenv": `# tmuxwright shell integration for zsh: your own start-up files run first.
__tw_zdotdir=$ZDOTDIR
ZDOTDIR=\${TMUXWRIGHT_USER_ZDOTDIR:-$HOME}
[[ -r $ZDOTDIR/.zshenv ]] && builtin source $ZDOTDIR/.zshenv
TMUXWRIGHT_USER_ZDOTDIR=$ZDOTDIR
ZDOTDIR=$__tw_zdotdir
`,
  ".zprofile": `ZDOTDIR=$TMUXWRIGHT_USER_ZDOTDIR
[[ -r $ZDOTDIR/.zprofile ]] && builtin source $ZDOTDIR/.zprofile
TMUXWRIGHT_USER_ZDOTDIR=$ZDOTDIR
ZDOTDIR=$__tw_zdotdir
`,
  ".zshrc": `ZDOTDIR=$TMUXWRIGHT_USER_ZDOTDIR
[[ -r $ZDOTDIR/.zshrc ]] && builtin source $ZDOTDIR/.zshrc
# ZDOTDIR as the user has it again (.zlogin and nested shells read theirs).
if [[ $ZDOTDIR == $HOME ]]; then unset ZDOTDIR; else export ZDOTDIR; fi
unset TMUXWRIGHT_USER_ZDOTDIR __tw_zdotdir
if [[ -n $TMUXWRIGHT_SHELL_MARKS ]]; then
  typeset -g __tw_n=$TMUXWRIGHT_SHELL_MARKS __tw_c=0
  unset TMUXWRIGHT_SHELL_MARKS
  typeset -g __tw_eol=\${PROMPT_EOL_MARK-'%B%S%#%s%b'}
  typeset -g __tw_p="%{"$'\\e'"]6973;$__tw_n;P;$$"$'\\a'"%}" __tw_cm="%{"$'\\e'"]6973;$__tw_n;C"$'\\a'"%}"
  __tw_preexec() {
    (( ++__tw_c ))
    # PROMPT_SP's mark is printed before precmd runs: it carries the end mark first.
    PROMPT_EOL_MARK="%{"$'\\e'"]6973;$__tw_n;E;$__tw_c;%?"$'\\a'"%}$__tw_eol"
    __tw_first
    builtin print -rn -- $'\\e'"]6973;$__tw_n;S;$__tw_c"$'\\a'
  }
  # Our precmd first, __tw_post last. A function named precmd would run before the array: it
  # becomes the array's first entry after ours.
  __tw_first() {
    if (( \${+functions[precmd]} )); then
      functions[__tw_user_precmd]=$functions[precmd]
      unfunction precmd
      precmd_functions=(__tw_user_precmd \${precmd_functions:#__tw_user_precmd})
    fi
    precmd_functions=(__tw_precmd \${precmd_functions:#__tw_(precmd|post)} __tw_post)
  }
  __tw_precmd() {
    local s=$?
    builtin print -rn -- $'\\e'"]6973;$__tw_n;E;$__tw_c;$s"$'\\a'
    return $s
  }
  __tw_post() {
    [[ $PS1 == *"$__tw_p"* ]] || PS1=$PS1$__tw_p
    [[ $PS2 == "$__tw_cm"* ]] || PS2=$__tw_cm$PS2
    setopt HIST_IGNORE_SPACE
    unsetopt BANG_HIST CORRECT CORRECT_ALL
  }
  zle_highlight=(\${zle_highlight:#paste:*} paste:none) # drawn once, as typed (no redraw to highlight it)
  __tw_first
  preexec_functions+=(__tw_preexec)
  for __tw_m in emacs viins vicmd; do bindkey -M $__tw_m '\\e[6973~' accept-line; done
  unset __tw_m
  __tw_post
fi
`,
};

export const FISH_INIT = `# tmuxwright shell integration for fish (runs after your config.fish).
if set -q TMUXWRIGHT_SHELL_MARKS
    set -g __tw_n $TMUXWRIGHT_SHELL_MARKS
    set -e TMUXWRIGHT_SHELL_MARKS
    set -g __tw_c 0
    function __tw_preexec --on-event fish_preexec
        set -g __tw_c (math $__tw_c + 1)
        printf '\\e]6973;%s;S;%s\\a' $__tw_n $__tw_c
    end
    function __tw_postexec --on-event fish_postexec
        set -l s $status
        printf '\\e]6973;%s;E;%s;%s\\a' $__tw_n $__tw_c $s
    end
    # Handlers run in the order they were defined: the user's own fish_postexec handlers are
    # defined again (from their own text), after ours, so none runs before the end mark.
    for __tw_h in (functions --handlers-type generic | string match -r '^fish_postexec \\S+$' | string split -f2 ' ')
        test $__tw_h = __tw_postexec; or functions $__tw_h | source
    end
    set -e __tw_h
    if functions -q fish_prompt
        functions -c fish_prompt __tw_user_prompt
    else
        function __tw_user_prompt
            printf '> '
        end
    end
    function fish_prompt
        __tw_user_prompt
        printf '\\e]6973;%s;P;%s\\a' $__tw_n $fish_pid
    end
    # Incomplete input is not run (Enter would only start a new line): it is cleared and said.
    function __tw_accept
        if commandline --is-valid
            commandline -f execute
        else
            commandline -r ''
            printf '\\e]6973;%s;C\\a' $__tw_n
            commandline -f repaint
        end
    end
    bind \\e\\[6973\\~ __tw_accept
    bind -M insert \\e\\[6973\\~ __tw_accept 2>/dev/null
end
`;

/**
 * dash reads $ENV (pointed here); the user's own ENV file runs first. dash has no hook before a
 * command: the server turns the terminal's echo off, types `__tw_run FILE`, and the function
 * turns echo back on, shows the command as if typed, marks its start and runs the file in the
 * shell itself. The end mark is in PS1 (dash expands `$?` there). Other shells that read ENV
 * (bash as sh, ksh, busybox) echo typed text themselves: they get no marks.
 */
export const POSIX_ENV = `# tmuxwright shell integration for dash: your own ENV file runs first.
if [ -n "\${TMUXWRIGHT_USER_ENV+x}" ]; then
  ENV=$TMUXWRIGHT_USER_ENV
  export ENV
  unset TMUXWRIGHT_USER_ENV
  [ -r "$ENV" ] && . "$ENV"
else
  unset ENV
fi
__tw_n=\${TMUXWRIGHT_SHELL_MARKS-}
unset TMUXWRIGHT_SHELL_MARKS
if [ -n "$__tw_n" ] && [ -z "\${BASH_VERSION-}\${KSH_VERSION-}\${ZSH_VERSION-}\${YASH_VERSION-}\${BB_ASH_VERSION-}" ]; then
  __tw_o=$(printf '\\033]6973;%s;' "$__tw_n")
  __tw_b=$(printf '\\007')
  __tw_c=0
  # \${__tw_c} counts the commands __tw_run ran: an end mark a command prints cannot end a later one.
  PS1="\${__tw_o}E;"'\${__tw_c};$?'"$__tw_b\${PS1-\\$ }\${__tw_o}P;$$$__tw_b"
  PS2="\${__tw_o}C$__tw_b\${PS2-> }"
  __tw_run() {
    stty echo 2>/dev/null
    sed '1!s/^/> /' "$1"
    __tw_c=$((__tw_c + 1))
    printf '%sS;%s%s' "$__tw_o" "$__tw_c" "$__tw_b"
    . "$1"
  }
elif [ -n "$__tw_n" ]; then
  printf '\\033]6973;%s;N\\007' "$__tw_n" # this shell takes no marks: commands are typed in a wrapper line
fi
`;
