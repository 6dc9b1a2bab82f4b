#!/usr/bin/env bash
# The main job on the Mistral RoPE backward example: the fusion as written,
# after fuser-preseg, segmented, the segment report, the interpreter's
# checksum before and after (which must agree), the kernel schedules, the
# PTX's memory instructions, the kernels run on the CPU backend, the GPU
# kernels themselves under the SIMT emulator (with its check summary) and,
# where a GPU is present, on the GPU.
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

echo "== kernels (fuser-schedule): schedules and launch geometry"
"$bin/fuser-opt" --fuser-schedule --fuser-segment-report "$tmp/segmented.mlir" -o /dev/null

echo "== PTX of the kernels (fuser-lower-to-nvvm chip=sm_90 format=isa)"
"$bin/fuser-opt" --fuser-lower-to-nvvm="chip=sm_90 format=isa" "$tmp/segmented.mlir" \
  | grep -oE '\.entry [A-Za-z0-9_]+|(ld|st)\.global[a-z.0-9]*' | sort | uniq -c

echo "== the kernels on the CPU backend (the same schedules) against the interpreter"
"$bin/fuser-run" "$example" --backend cpu --check-against interp

echo "== the GPU kernels (format=llvm) under the SIMT emulator against the interpreter, every check on"
"$bin/fuser-run" "$example" --backend simt --check-against interp

# Where a GPU and its driver are present: the kernels on the GPU against the
# interpreter, then timed (docs/Lowering.md, "CUDA runtime and --backend
# cuda"). Elsewhere fuser-run exits 2 saying why, and the demo says it skipped.
echo "== the kernels on the GPU (fuser-run --backend cuda --check-against interp --bench 100)"
status=0
"$bin/fuser-run" "$example" --backend cuda --check-against interp --bench 100 \
  >"$tmp/gpu.out" 2>"$tmp/gpu.err" || status=$?
if [ "$status" -eq 2 ] && grep -q "backend cuda is not available: " "$tmp/gpu.err"; then
  echo "GPU run: skipped ($(sed -n 's/.*backend cuda is not available: //p' "$tmp/gpu.err" | head -n 1))"
else
  cat "$tmp/gpu.out"
  cat "$tmp/gpu.err" >&2
  if [ "$status" -ne 0 ]; then
    echo "GPU run: FAILED (fuser-run exited $status)"
    exit "$status"
  fi
fi
