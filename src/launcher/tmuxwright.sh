#!/bin/sh
# The tmuxwright command: the npm package's bin (bin/tmuxwright), and `deno task start|bridge` in
# a checkout. It finds the Deno runtime, computes the server's least-privilege flags for these
# arguments and this environment (the rules of permissions.ts, below in sh), and execs the server
# on that runtime: the runtime starts once, no Node starts, and no launcher process stays behind
# the server (stdio, signals and the exit status are the server's own).
# Where no runtime is found in the package, the Node bin beside this script takes over.

# The Deno release the package depends on (src/version.ts; tests/launcher_test.ts checks them equal).
DENO_VERSION=2.9.6

# This script's own directory, through the links npm makes (PREFIX/bin, node_modules/.bin).
self=$0
while [ -h "$self" ]; do
  link=$(readlink "$self") || break
  case $link in
    /*) self=$link ;;
    *) self=${self%/*}/$link ;;
  esac
done
case $self in
  */*) here=${self%/*} ;;
  *) here=. ;;
esac

# True when the package directory $1 is at the pinned version (read without starting a program).
pinned() {
  [ -f "$1/package.json" ] || return 1
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in *"\"version\": \"$DENO_VERSION\""*) return 0 ;; esac
  done <"$1/package.json"
  return 1
}

# The runtime in node_modules directory $1: the `deno` package's copy made by its install script,
# else the binary of its platform package (@deno/linux-x64-glibc, @deno/darwin-arm64, ...), which
# npm installs even when it skips install scripts. Sets $deno.
runtime_in() {
  pinned "$1/deno" || return 1
  if [ -x "$1/deno/deno" ]; then
    deno=$1/deno/deno
    return 0
  fi
  name=$(platform)
  for candidate in "$1/deno/node_modules/@deno/$name/deno" "$1/@deno/$name/deno"; do
    if [ -x "$candidate" ] && pinned "${candidate%/deno}"; then
      deno=$candidate
      return 0
    fi
  done
  return 1
}

# @deno's name for this machine, as the deno package's own installer picks it.
platform() {
  set -- $(uname -sm)
  case $1 in
    Linux) os=linux suffix=-glibc ;;
    Darwin) os=darwin suffix= ;;
    *) os=unknown suffix= ;;
  esac
  case ${2:-} in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch=unknown ;;
  esac
  echo "$os-$arch$suffix"
}

# The runtime Node would resolve from the package directory $1: its own node_modules, then each
# ancestor's (npx and hoisting installs put `deno` beside the package).
find_runtime() {
  dir=$1
  while [ -n "$dir" ]; do
    case $dir in
      */node_modules) ;;
      *) if [ -d "$dir/node_modules/deno" ]; then runtime_in "$dir/node_modules" && return 0 || return 1; fi ;;
    esac
    dir=${dir%/*}
  done
  return 1
}

# ---- The flags: permissions.ts's launchFlags in sh (tests/launcher_test.ts runs both on a table of
# command lines and environments and requires the same flags). Empty variables count as unset.

# The last value of `--$1 VALUE` or `--$1=VALUE` in the rest ($found says whether one was given).
flag_value() {
  name=$1 found= value=
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      --) return ;;
      "--$name") if [ $# -gt 1 ]; then found=1 value=$2 && shift; fi ;;
      "--$name="*) found=1 value=${1#"--$name="} ;;
    esac
    shift
  done
}

# $1 without trailing slashes (except "/" itself), in $trimmed.
trim_slash() {
  trimmed=$1
  [ "$trimmed" = / ] && return
  while :; do
    case $trimmed in
      */) trimmed=${trimmed%/} ;;
      *) return ;;
    esac
  done
}

# Whether path $1 is the directory $2 or below it.
within() {
  trim_slash "$2"
  [ "$1" = "$trimmed" ] && return 0
  case $1 in "$trimmed"/*) return 0 ;; esac
  return 1
}

# The link program of a host destination $1 in $kind: ssh (no scheme, ssh://), podman, docker, or
# empty (an unknown scheme: the server refuses it). A scheme is a letter, then letters, digits, + . -
ALNUM=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789
link_kind() {
  kind=ssh
  case $1 in *:*) ;; *) return ;; esac
  case ${1#*:} in //*) ;; *) return ;; esac
  case ${1%%:*} in
    "" | [!$ALNUM]* | [0123456789]* | *[!$ALNUM+.-]*) ;;
    [Ss][Ss][Hh]) ;;
    [Pp][Oo][Dd][Mm][Aa][Nn]) kind=podman ;;
    [Dd][Oo][Cc][Kk][Ee][Rr]) kind=docker ;;
    *) kind= ;;
  esac
}

# Notes the link program of one host entry NAME=DEST ($1; one without `=` configures nothing).
host_entry() {
  case $1 in *=*) ;; *) return ;; esac
  defined=1
  link_kind "${1#*=}"
  case $kind in
    ssh) uses_ssh=1 ;;
    podman) uses_podman=1 ;;
    docker) uses_docker=1 ;;
  esac
}

# The hosts' link programs: of `--host NAME=DEST` flags, else (none defines one) of TMUXWRIGHT_HOSTS.
host_programs() {
  defined= uses_ssh= uses_podman= uses_docker=
  while [ $# -gt 0 ]; do
    case $1 in
      --) break ;;
      --host) if [ $# -gt 1 ]; then
        shift
        host_entry "$1"
      fi ;;
      --host=*) host_entry "${1#--host=}" ;;
    esac
    shift
  done
  [ -n "$defined" ] && return
  hosts=${TMUXWRIGHT_HOSTS:-}
  while [ -n "$hosts" ]; do
    case $hosts in
      *,*) host_entry "${hosts%%,*}"; hosts=${hosts#*,} ;;
      *) host_entry "$hosts"; hosts= ;;
    esac
  done
}

# Its arguments joined with commas, each once (the first time it comes), in $joined.
join_unique() {
  joined= i=0
  for item in "$@"; do
    i=$((i + 1)) j=0 again=
    for earlier in "$@"; do
      j=$((j + 1))
      [ "$j" -lt "$i" ] || break
      if [ "$earlier" = "$item" ]; then again=1 && break; fi
    done
    [ -n "$again" ] && continue
    if [ "$i" -eq 1 ]; then joined=$item; else joined=$joined,$item; fi
  done
}

# The grants for the command line "$@": $allow_run, $allow_env, $allow_read, $allow_write.
permissions() {
  unset socket policy audit_dir audit_full cert key
  bridge=
  [ "${1-}" = bridge ] && bridge=1
  allow_run=tmux
  allow_env=HOME,XDG_STATE_HOME,SHELL,TMUX,TMUX_PANE,TMUXWRIGHT_*,TMUX_DEBUG_AUDIT*,TMUX_BRIDGE_*,ALLOWED_ORIGINS,HOST,PORT,HTTPS,USER
  # The bridge takes its settings from its variables and flags, not the server's.
  if [ -n "$bridge" ]; then found=; else flag_value state-dir "$@"; fi
  if [ -n "$found" ]; then
    state=$value
  elif [ -n "${TMUXWRIGHT_STATE_DIR:-}" ]; then
    state=$TMUXWRIGHT_STATE_DIR
  else
    if [ -n "${XDG_STATE_HOME:-}" ]; then
      base=$XDG_STATE_HOME
    else
      trim_slash "${HOME:-/tmp}"
      base=$trimmed/.local/state
    fi
    trim_slash "$base"
    state=$trimmed/tmuxwright
  fi
  if [ -n "$bridge" ]; then
    socket=/tmp/tmuxwright-bridge-${USER:-user}
  else
    host_programs "$@"
    [ -n "$uses_ssh" ] && allow_run=$allow_run,ssh
    [ -n "$uses_podman" ] && allow_run=$allow_run,podman
    [ -n "$uses_docker" ] && allow_run=$allow_run,docker
    if [ -n "$uses_podman$uses_docker" ]; then allow_env=$allow_env,DOCKER_HOST,CONTAINER_HOST,DOCKER_CONTEXT; fi
    # The audit file's directory is created when missing, so the grant is the directory.
    flag_value audit "$@"
    [ -n "$found" ] || value=${TMUX_DEBUG_AUDIT:-}
    if [ -n "$value" ]; then
      trim_slash "$value"
      case $trimmed in
        */*) audit_dir=${trimmed%/*} && audit_dir=${audit_dir:-/} ;;
        *) audit_dir=/ ;;
      esac
      within "$audit_dir" "$state" && unset audit_dir
    fi
    flag_value audit-full "$@"
    [ -n "$found" ] || value=${TMUX_DEBUG_AUDIT_FULL:-}
    if [ -n "$value" ] && ! within "$value" "$state"; then audit_full=$value; fi
    flag_value policy "$@"
    [ -n "$found" ] || value=${TMUXWRIGHT_POLICY:-}
    if [ -n "$value" ] && ! within "$value" "$state"; then policy=$value; fi
  fi
  # The server and the bridge take the same TLS flags and variables.
  flag_value tls-cert "$@"
  [ -n "$found" ] || value=${TMUXWRIGHT_TLS_CERT:-}
  if [ -n "$value" ] && ! within "$value" "$state"; then cert=$value; fi
  flag_value tls-key "$@"
  [ -n "$found" ] || value=${TMUXWRIGHT_TLS_KEY:-}
  if [ -n "$value" ] && ! within "$value" "$state"; then key=$value; fi
  join_unique "$state" ${socket+"$socket"} ${policy+"$policy"} ${cert+"$cert"} ${key+"$key"}
  allow_read=$joined
  join_unique "$state" ${socket+"$socket"} ${audit_dir+"$audit_dir"} ${audit_full+"$audit_full"}
  allow_write=$joined
}

# ---- The runtime and the server's entry.

config=--no-config
if [ -f "$here/../server/main.js" ]; then
  # The npm package: bin/tmuxwright beside server/.
  package=$(cd "$here/.." && pwd -P) || exit 2
  if ! find_runtime "$package"; then
    command -v node >/dev/null 2>&1 && exec node "$here/tmuxwright.cjs" "$@"
    echo "tmuxwright: Cannot find the Deno runtime $DENO_VERSION: reinstall tmuxwright with npm (optional dependencies included)" >&2
    exit 2
  fi
  # The runtime is pinned by the package: its upgrade notice would only be noise.
  export DENO_NO_UPDATE_CHECK=1
  entry=$package/server/main.js
else
  # A checkout: src/launcher/tmuxwright.sh, run by `deno task start` with the deno on PATH. Its
  # build (dist/start/, start_bundle.ts) runs while no source is newer than it; else launch.ts
  # checks it exactly, rebuilds it and prints its entry (nothing where it cannot: main.ts runs).
  root=$(cd "$here/../.." && pwd -P) || exit 2
  deno=$(command -v deno) || {
    echo "tmuxwright: Cannot find deno on PATH: install Deno $DENO_VERSION (npm install -g deno@$DENO_VERSION)" >&2
    exit 2
  }
  entry=$root/dist/start/server/main.js
  stamp=$root/dist/start/SOURCES
  if [ ! -f "$stamp" ] || [ -n "$(find "$root/main.ts" "$root/deno.json" "$root/deno.lock" "$root/src" -newer "$stamp" 2>&1)" ]; then
    entry=$("$deno" run --quiet --no-prompt --no-config "--allow-read=$root" "--allow-write=$root/dist" \
      "--allow-run=$deno" "$here/launch.ts" "$deno") || exit $?
    if [ -z "$entry" ]; then
      config=$root/deno.json
      entry=$root/main.ts
    fi
  fi
fi

permissions "$@"
# The runtime flags of permissions.ts (RUNTIME_FLAGS), the grants, loopback networking (NET_HOSTS).
set -- --quiet --no-prompt --v8-flags=--max-semi-space-size=1,--optimize-for-size "--allow-run=$allow_run" \
  "--allow-env=$allow_env" "--allow-read=$allow_read" "--allow-write=$allow_write" \
  "--allow-net=127.0.0.1,[::1],localhost" "$entry" "$@"
if [ "$config" = --no-config ]; then set -- --no-config "$@"; else set -- --config "$config" "$@"; fi
exec "$deno" run "$@"
