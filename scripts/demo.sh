#!/usr/bin/env bash
# The main job on the Mistral RoPE backward example: the fusion as written,
# after fuser-preseg, segmented, the segment report, and the interpreter's
# checksum before and after (which must agree).
set -euo pipefail
bin=${1:-build/bin}
example=examples/mistral_rope_bwd.mlir
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== $example (as written: the chain nvFuser splits into two kernels)"
"$bin/fuser-opt" "$example"

echo "== after fuser-preseg"
"$bin/fuser-opt" --fuser-preseg "$example" -o "$tmp/preseg.mlir"
cat "$tmp/preseg.mlir"

echo "== after fuser-segment"
"$bin/fuser-opt" --fuser-segment "$tmp/preseg.mlir" -o "$tmp/segmented.mlir"
cat "$tmp/segmented.mlir"

echo "== segments"
"$bin/fuser-opt" --fuser-segment-report "$tmp/segmented.mlir" -o /dev/null

echo "== fuser-run (interpreter), before and after"
"$bin/fuser-run" "$example"
"$bin/fuser-run" "$example" --check-against interp --against-file "$tmp/segmented.mlir" --ulp-tolerance 0

echo "== kernels: GPU lowering (fuser-lower-to-nvvm) is not implemented yet; nothing to run on a GPU"
