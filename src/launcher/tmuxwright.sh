#!/bin/sh
# The tmuxwright command: the npm package's bin (bin/tmuxwright), and `deno task start|bridge` in
# a checkout. It finds the Deno runtime, asks launch.ts (on that runtime) for the server's `deno`
# arguments (the least-privilege flags of permissions.ts for these arguments and this
# environment, then the server's entry), and execs them: no Node starts, and no launcher process
# stays behind the server (stdio, signals and the exit status are the server's own).
# Where no runtime is found in the package, the Node bin beside this script takes over.

# The Deno release the package depends on (src/version.ts; tests/launcher_test.ts checks them equal).
DENO_VERSION=2.9.6
# What launch.ts reads: the variables the flags depend on (permissions.ts, LAUNCHER_ENV).
LAUNCHER_ENV='HOME,XDG_STATE_HOME,USER,TMUXWRIGHT_*,TMUX_DEBUG_AUDIT*'

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

if [ -f "$here/../launch.js" ]; then
  # The npm package: bin/tmuxwright beside launch.js and server/.
  package=$(cd "$here/.." && pwd -P) || exit 2
  if ! find_runtime "$package"; then
    command -v node >/dev/null 2>&1 && exec node "$here/tmuxwright.cjs" "$@"
    echo "tmuxwright: Cannot find the Deno runtime $DENO_VERSION: reinstall tmuxwright with npm (optional dependencies included)" >&2
    exit 2
  fi
  # The runtime is pinned by the package: its upgrade notice would only be noise.
  export DENO_NO_UPDATE_CHECK=1
  argv=$("$deno" run --quiet --no-prompt --no-config "--allow-env=$LAUNCHER_ENV" "$package/launch.js" "$@") ||
    exit $?
else
  # A checkout: src/launcher/tmuxwright.sh, run by `deno task start` with the deno on PATH. Its
  # build (dist/start/, start_bundle.ts) runs while no source is newer than it; else launch.ts
  # checks it exactly and rebuilds it.
  root=$(cd "$here/../.." && pwd -P) || exit 2
  deno=$(command -v deno) || {
    echo "tmuxwright: Cannot find deno on PATH: install Deno $DENO_VERSION (npm install -g deno@$DENO_VERSION)" >&2
    exit 2
  }
  stamp=$root/dist/start/SOURCES
  if [ -f "$stamp" ] && [ -z "$(find "$root/main.ts" "$root/deno.json" "$root/deno.lock" "$root/src" -newer "$stamp" 2>&1)" ]; then
    argv=$("$deno" run --quiet --no-prompt --no-config "--allow-env=$LAUNCHER_ENV" "$root/dist/start/launch.js" "$@") ||
      exit $?
  else
    argv=$(TMUXWRIGHT_LAUNCH_DENO=$deno "$deno" run --quiet --no-prompt --no-config "--allow-env=$LAUNCHER_ENV" \
      "--allow-read=$root" "--allow-write=$root/dist" "--allow-run=$deno" "$here/launch.ts" "$@") || exit $?
  fi
fi

# One argument per line (launch.ts refuses a line break in a path); the server's own arguments follow.
IFS='
'
set -f
# shellcheck disable=SC2086
exec "$deno" $argv "$@"
