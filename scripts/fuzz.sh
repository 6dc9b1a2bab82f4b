#!/usr/bin/env bash
# Usage: scripts/fuzz.sh SECONDS
#
# Builds the libFuzzer target fuser-fuzz (clang-14, ASan + UBSan) in
# $FUZZ_BUILD_DIR (default build-fuzz), replays every saved input in
# test/Fuzz/crashes/ as a regression test, then fuzzes for SECONDS starting
# from the repository's .mlir files. New crash inputs are saved to
# test/Fuzz/crashes/. SECONDS=0 only replays. See docs/Testing.md.
set -euo pipefail

seconds=${1:?usage: scripts/fuzz.sh SECONDS}
cd "$(dirname "$0")/.."
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
llvm_prefix=${LLVM_PREFIX:-/usr/lib/llvm-22}
crash_dir=test/Fuzz/crashes

if [ ! -f "$build_dir/build.ninja" ]; then
  CC=clang-14 CXX=clang++-14 cmake -G Ninja -S . -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm_prefix/bin/lit" \
    -DFUSER_ENABLE_SANITIZERS=ON -DFUSER_BUILD_FUZZER=ON
fi
cmake --build "$build_dir" --target fuser-fuzz
fuzzer=$build_dir/bin/fuser-fuzz

# allow_user_poisoning=0: see test/lit.cfg.py (LLVM's inline allocator code
# poisons memory that the uninstrumented libMLIR.so then hands out).
export ASAN_OPTIONS="allow_user_poisoning=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
if [ -x "$llvm_prefix/bin/llvm-symbolizer" ]; then
  export ASAN_SYMBOLIZER_PATH=$llvm_prefix/bin/llvm-symbolizer
fi

mapfile -t saved < <(find "$crash_dir" -type f ! -name README.md | sort)
if ((${#saved[@]})); then
  echo "fuzz: replaying ${#saved[@]} saved inputs from $crash_dir"
  "$fuzzer" "${saved[@]}" 2>"$build_dir/fuzz-replay.log" \
    || { cat "$build_dir/fuzz-replay.log"; echo "fuzz: a saved input fails again"; exit 1; }
fi
((seconds > 0)) || exit 0

# Seeds: every .mlir file of examples/ and test/, and the nvFuser prints of
# the importer's tests (test/Target/NvFuser: today's and the pre-September-2024
# format, banners, symbolic extents), flattened and split at the "// -----"
# markers of -split-input-file tests so that each seed is one case. New
# interesting inputs go to the persistent corpus, the first directory given
# to the fuzzer.
seeds=$build_dir/fuzz-seeds
corpus=$build_dir/fuzz-corpus
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus"
while IFS= read -r file; do
  awk -v prefix="$seeds/${file//\//_}" \
    '/^\/\/ -----/ { ++part; next } { print > (prefix "." part+0 ".mlir") }' "$file"
done < <(find examples test -name '*.mlir'
         find test/Target/NvFuser -name '*.test' -o -name '*.txt')

dict=$build_dir/fuser.dict
cp test/Fuzz/fuser.dict "$dict"
grep -o 'Fuser_[A-Za-z]*Op<"[a-z_]*"' include/fuser/Dialect/Fuser/IR/FuserOps.td \
  | sed 's/.*<"\(.*\)"/"fuser.\1"/' | sort -u >>"$dict"

echo "fuzz: fuzzing for $seconds s (${FUZZ_SEED:+seed $FUZZ_SEED, }corpus $corpus)"
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=32768 -dict="$dict" -artifact_prefix="$crash_dir/" \
  -print_final_stats=1 ${FUZZ_SEED:+-seed="$FUZZ_SEED"} "$corpus" "$seeds" \
  || { echo "fuzz: found a failing input, saved in $crash_dir/ (commit it as a regression input once fixed)"; exit 1; }
