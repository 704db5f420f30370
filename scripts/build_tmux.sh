#!/bin/sh
# Builds every tmux source tarball in a directory (default ../shared/tmux beside the checkout) once,
# into ~/.cache/tmuxwright-dev/tmux/<version>/bin/tmux, keyed by the tarball's sha256 so a changed
# tarball is built again. Prints one line per version: "<version> <path to its tmux>".
# Needs a C compiler and Debian's autoconf automake bison pkg-config libevent-dev libncurses-dev.
set -eu
src_dir=${1:-$(cd "$(dirname "$0")/../.." && pwd)/shared/tmux}
cache=${TMUXWRIGHT_TMUX_CACHE:-$HOME/.cache/tmuxwright-dev/tmux}
mkdir -p "$cache"
for tarball in "$src_dir"/tmux-*.tar.gz; do
  [ -f "$tarball" ] || continue
  version=$(basename "$tarball" .tar.gz | sed 's/^tmux-//')
  prefix="$cache/$version"
  sum=$(sha256sum "$tarball" | cut -d' ' -f1)
  if [ ! -x "$prefix/bin/tmux" ] || [ "$(cat "$prefix/.sha256" 2>/dev/null)" != "$sum" ]; then
    work=$(mktemp -d)
    log="$cache/$version.build.log"
    if ! (
      tar -xzf "$tarball" -C "$work" &&
        cd "$work"/* &&
        sh autogen.sh &&
        ./configure --prefix="$prefix" &&
        make -j2 &&
        rm -rf "$prefix" &&
        make install
    ) >"$log" 2>&1; then
      echo "build of tmux $version failed: see $log" >&2
      rm -rf "$work"
      exit 1
    fi
    echo "$sum" >"$prefix/.sha256"
    rm -rf "$work"
  fi
  echo "$version $prefix/bin/tmux"
done
