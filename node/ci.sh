#!/usr/bin/env bash
# The Node package's CI step (run by .ci/run): check Node >= 20, install the npm dev dependencies
# (@napi-rs/cli, typescript, @types/node, and the frameworks the adapters are tested against: ai,
# @langchain/core, @mastra/core, deepagents; from package-lock.json), build the native module with
# napi-rs in release mode, and run node/test with node's own test runner (which also runs
# `tsc --strict` over index.d.ts and examples/every_method.ts). Any failure fails the step.
#
#   bash node/ci.sh            # from anywhere in the repository
set -euo pipefail
cd "$(dirname "$0")"

command -v node >/dev/null || { echo "node: node is not installed" >&2; exit 1; }
command -v npm >/dev/null || { echo "node: npm is not installed" >&2; exit 1; }
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
  echo "node: Node >= 20 is required, found $(node --version)" >&2
  exit 1
fi
echo "node: $(node --version), npm $(npm --version)"

t0=$(date +%s)
if [ ! -x node_modules/.bin/napi ] || [ ! -f node_modules/typescript/package.json ] || [ ! -f node_modules/ai/package.json ] \
  || [ ! -f node_modules/@langchain/core/package.json ] || [ ! -f node_modules/@mastra/core/package.json ] \
  || [ ! -f node_modules/deepagents/package.json ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --silent
fi
rm -f rootbound.*.node binding.js binding.d.ts
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! npm run -s build >"$log" 2>&1; then
  cat "$log" >&2
  echo "node: the napi build failed" >&2
  exit 1
fi
ls rootbound.linux-x64-gnu.node binding.js >/dev/null  # the build must have produced them
t1=$(date +%s)
echo "node: built $(ls rootbound.*.node) ($(du -k rootbound.*.node | cut -f1 | head -1) KiB) in $((t1 - t0)) s"

set +e
npm test -s
status=$?
set -e
t2=$(date +%s)
echo "node: tests in $((t2 - t1)) s (step total $((t2 - t0)) s)"
exit "$status"
