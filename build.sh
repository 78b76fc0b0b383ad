#!/usr/bin/env bash
# normlab's one entry point. Every command installs what is missing first.
#
#   ./build.sh deps    install system packages, xsimd 13, Catch2, npm packages
#   ./build.sh build   native library + tests, wasm modules, dist/
#   ./build.sh serve   build, then serve dist/ on http://127.0.0.1:8000
#   ./build.sh test    build, then run every test (native, wasm, Node, Chromium)
#   ./build.sh bench   build, then benchmark against peers (installs them) and the model
#   ./build.sh fuzz    run each libFuzzer target for FUZZ_SECONDS (default 60)
#   ./build.sh dist    build, then zip dist/ as build/normlab-<version>.zip
#   ./build.sh soak    build, then 10,000 moves + 1,000 prompt changes in Chromium (SOAK_MOVES, SOAK_PROMPTS)
#   ./build.sh sweep   build, then the trainer's depth x lr x placement sweep -> web/data/train-sweep.json
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=$ROOT/build
DEPS=$BUILD/deps
LOGS=$BUILD/logs
DIST=$ROOT/dist
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Debian's emcc needs its JS optimizer's acorn, which lives here.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

say() { printf '[normlab] %s\n' "$*"; }
die() { printf '[normlab] error: %s\n' "$*" >&2; exit 1; }

# run LOGNAME CMD...: quiet on success, the log's tail on failure.
run() {
  local name=$1; shift
  mkdir -p "$LOGS"
  if ! "$@" >"$LOGS/$name.log" 2>&1; then
    tail -n 60 "$LOGS/$name.log" >&2
    die "$name failed (full log: build/logs/$name.log)"
  fi
}

# ---------------------------------------------------------------- deps
APT_BUILD=(cmake make g++ emscripten binaryen catch2)
# The CJK font lets screenshots of the zh-CN page show its text.
APT_BROWSER=(chromium fonts-wqy-microhei)
# clang builds the sanitized tests and the fuzzers; libFuzzer and the
# sanitizer runtimes are in libclang-rt-dev.
APT_CHECK=(clang libclang-rt-dev)

apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 && sudo=(sudo) ||
      die "missing packages: ${missing[*]}. Install them with: apt-get install ${missing[*]}"
  fi
  command -v apt-get >/dev/null 2>&1 ||
    die "missing packages: ${missing[*]} (Debian names). Install them with your package manager; Emscripten 3.1.x, Catch2 2.x, Chromium and binaryen are needed."
  say "installing ${missing[*]} (apt)"
  run apt-update "${sudo[@]}" apt-get update
  run apt-install "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# xsimd >= 9 is needed for its WebAssembly architecture; bookworm has 8.1.
# Take Debian trixie's header-only libxsimd-dev by package name with a private
# apt configuration, and unpack it under build/deps without touching the system.
fetch_xsimd() {
  local dest=$DEPS/xsimd
  [ -f "$dest/include/xsimd/xsimd.hpp" ] && return 0
  say "fetching xsimd 13 (Debian trixie's libxsimd-dev) into build/deps/xsimd"
  local apt=$DEPS/apt
  rm -rf "$apt" && mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/pkg"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" >"$apt/sources.list"
  local opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o Dir::State::Status=/dev/null
    -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
  run xsimd-update apt-get "${opts[@]}" update
  (cd "$apt/pkg" && run xsimd-download apt-get "${opts[@]}" download libxsimd-dev)
  local deb; deb=$(ls "$apt"/pkg/libxsimd-dev_*.deb)
  rm -rf "$dest.tmp" && mkdir -p "$dest.tmp" && dpkg-deb -x "$deb" "$dest.tmp"
  mkdir -p "$dest/include" && mv "$dest.tmp/usr/include/xsimd" "$dest/include/" && rm -rf "$dest.tmp" "$apt"
}

# Catch2's header alone in its own folder: emcc must never see /usr/include.
stage_catch2() {
  local dest=$DEPS/catch2/catch2
  [ -f "$dest/catch.hpp" ] && return 0
  mkdir -p "$dest" && cp /usr/include/catch2/catch.hpp "$dest/"
}

npm_ci() { # npm_ci DIR: install DIR's locked packages when the lockfile changed
  local dir=$1 stamp=$1/node_modules/.normlab-lock
  [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp" && return 0
  command -v npm >/dev/null 2>&1 || die "npm is missing: install Node.js 20 (with npm)"
  say "installing npm packages in ${dir/#"$ROOT"/.}"
  # onnxruntime-node (a bench peer) ships its CPU binaries in the package; its
  # postinstall would try to download GPU providers, which cannot work here.
  (cd "$dir" && run "npm-ci-$(basename "$dir")" env ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund)
  cp "$dir/package-lock.json" "$stamp"
}

deps_build() { apt_install "${APT_BUILD[@]}"; fetch_xsimd; stage_catch2; npm_ci "$ROOT"; }
deps_all() { deps_build; apt_install "${APT_BROWSER[@]}" "${APT_CHECK[@]}"; }

# ---------------------------------------------------------------- build
cmake_args=(-DNORMLAB_XSIMD_INCLUDE="$DEPS/xsimd/include" -DNORMLAB_CATCH2_INCLUDE="$DEPS/catch2")

build() {
  run cmake-native cmake -S "$ROOT" -B "$BUILD/native" "${cmake_args[@]}"
  run build-native cmake --build "$BUILD/native" -j "$JOBS"
  [ -f "$BUILD/wasm/CMakeCache.txt" ] || run cmake-wasm emcmake cmake -S "$ROOT" -B "$BUILD/wasm" "${cmake_args[@]}"
  run build-wasm cmake --build "$BUILD/wasm" -j "$JOBS"
  run bundle node "$ROOT/wasm/bundle.mjs" "$BUILD/wasm" "$DIST"
  run page node "$ROOT/web/build.mjs" "$DIST"
  say "built dist/ ($(du -sh "$DIST" | cut -f1))"
}

# The native library, Catch2 tests and fuzzers under AddressSanitizer +
# UBSan (NORMLAB_FUZZ implies NORMLAB_SANITIZE), in build/sanitize. clang,
# because libFuzzer needs it (g++ builds the shipped native library, so the
# tests also meet a second compiler). Debug keeps the kernels' asserts on;
# the library itself still builds at -O3 -march=native, like build/native.
build_checked() { # build_checked TARGET...
  run cmake-sanitize cmake -S "$ROOT" -B "$BUILD/sanitize" "${cmake_args[@]}" \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DNORMLAB_FUZZ=ON
  run build-sanitize cmake --build "$BUILD/sanitize" -j "$JOBS" --target "$@"
}

fuzzers() { local f; for f in "$ROOT"/tests/fuzz/fuzz_*.cpp; do basename "$f" .cpp; done; }

# Runs every saved input of every fuzzer once (-runs=0: no mutation).
fuzz_replay() {
  local name failed=0
  for name in $(fuzzers); do
    local corpus=$ROOT/tests/fuzz/corpus/$name
    if "$BUILD/sanitize/$name" -runs=0 "$corpus" >"$LOGS/replay-$name.log" 2>&1; then
      say "  $name: $(find "$corpus" -type f | wc -l) saved inputs pass"
    else
      tail -n 40 "$LOGS/replay-$name.log" >&2
      say "  $name: a saved input fails (log: build/logs/replay-$name.log)"
      failed=1
    fi
  done
  return $failed
}

# ---------------------------------------------------------------- commands
cmd_test() {
  deps_all; build
  local failed=0
  say "Catch2, native"
  "$BUILD/native/normlab_tests" || failed=1
  say "Catch2, native: the trainer's thesis ([.thesis], 3 seeds x 4 runs of 400 steps)"
  "$BUILD/native/normlab_tests" "[.thesis]" || failed=1
  say "Catch2, native, under AddressSanitizer + UBSan (clang)"
  build_checked normlab_tests normlab_fuzzers
  "$BUILD/sanitize/normlab_tests" || failed=1
  say "fuzz targets, replaying tests/fuzz/corpus"
  fuzz_replay || failed=1
  local flavour
  for flavour in simd scalar; do
    say "Catch2, wasm ($flavour) under Node"
    node "$BUILD/wasm/normlab_tests_wasm_$flavour.cjs" || failed=1
  done
  say "JS API and browser tests (node --test)"
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium} node --test --test-concurrency=1 "$ROOT"/tests/js/ "$ROOT"/tests/browser/ || failed=1
  [ $failed -eq 0 ] || die "some tests failed"
  say "all tests passed"
}

cmd_bench() {
  deps_build; build
  npm_ci "$ROOT/tests/bench"
  say "native kernels (-O3 -march=native)"
  "$BUILD/native/normlab_bench_native" --json "$BUILD/bench-native.json"
  say "native trainer: ms per training step, FLOPs, matmul GFLOP/s"
  "$BUILD/native/normlab_bench_train" --text "$ROOT/web/data/training-text.zh.txt" --json "$BUILD/bench-train.json"
  say "wasm and peers (Node $(node --version), single thread)"
  node "$ROOT/tests/bench/bench.mjs" --native "$BUILD/bench-native.json"
  say "synthetic model: creation, forward, gradients, memory, gradient flow"
  node "$ROOT/tests/bench/model-bench.mjs" --md "$BUILD/bench-model.md"
  apt_install "${APT_BROWSER[@]}"
  say "the page's interaction budget (headless Chromium)"
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium} node "$ROOT/tests/bench/page-perf.mjs"
}

# Each fuzzer starts from its saved corpus and writes what it finds to
# build/fuzz/<target> (the saved corpus is left alone), crashes to
# build/fuzz/artifacts. FUZZ_MERGE=1 then adds to tests/fuzz/corpus the new
# inputs that reach new coverage.
cmd_fuzz() {
  deps_build; apt_install "${APT_CHECK[@]}"
  build_checked normlab_fuzzers
  local seconds=${FUZZ_SECONDS:-60} name failed=0
  mkdir -p "$BUILD/fuzz/artifacts"
  for name in $(fuzzers); do
    local work=$BUILD/fuzz/$name saved=$ROOT/tests/fuzz/corpus/$name log=$LOGS/fuzz-$name.log
    local dict=()
    if [ -f "$ROOT/tests/fuzz/$name.dict" ]; then dict=(-dict="$ROOT/tests/fuzz/$name.dict"); fi
    mkdir -p "$work"
    say "fuzzing $name for ${seconds}s"
    if ! "$BUILD/sanitize/$name" "$work" "$saved" "${dict[@]}" -max_total_time="$seconds" -timeout=30 \
      -print_final_stats=1 -artifact_prefix="$BUILD/fuzz/artifacts/$name-" >"$log" 2>&1; then
      tail -n 40 "$log" >&2
      say "  $name found a failure (log: build/logs/fuzz-$name.log)"
      failed=1
    fi
    say "  $(grep -E 'number_of_executed_units|average_exec_per_sec' "$log" | awk '{printf "%s %s  ", $1, $2}')"
    if [ "${FUZZ_MERGE:-0}" = 1 ]; then
      run "merge-$name" "$BUILD/sanitize/$name" -merge=1 "$saved" "$work"
      say "  $name: saved corpus now $(find "$saved" -type f | wc -l) inputs, $(du -sh "$saved" | cut -f1)"
    fi
  done
  [ $failed -eq 0 ] || die "fuzzing found failures (inputs in build/fuzz/artifacts)"
  say "no failures"
}

cmd_serve() {
  deps_build; build
  say "open http://127.0.0.1:${PORT:-8000}/  (dist/index.html also opens directly from disk)"
  exec node "$ROOT/web/serve.mjs" "$DIST" "${PORT:-8000}"
}

# The release artefact for course platforms: dist/ as one zip, named after
# the version in package.json (the one place it is set).
cmd_dist() {
  deps_build; apt_install zip; build
  local version zipfile
  version=$(node -p "require('$ROOT/package.json').version")
  zipfile=$BUILD/normlab-$version.zip
  rm -f "$zipfile"
  (cd "$DIST" && zip -qr -X "$zipfile" .)
  say "wrote ${zipfile#"$ROOT"/} ($(du -h "$zipfile" | cut -f1))"
}

# A long session in headless Chromium (tests/browser/soak.mjs): scripted
# moves over every control of the page, then of the embed demo's elements;
# fails on any console error, wasm memory growth after warm-up, JS heap
# growth past its tolerance, or a page that stops responding. The report
# goes to build/soak.json.
cmd_soak() {
  deps_build; apt_install "${APT_BROWSER[@]}"; build
  say "soak: headless Chromium, ${SOAK_MOVES:-10000} moves and ${SOAK_PROMPTS:-1000} prompt changes on the page, ${SOAK_EMBED_MOVES:-500} and ${SOAK_EMBED_PROMPTS:-50} on the embed demo"
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium} node "$ROOT/tests/browser/soak.mjs" \
    --moves "${SOAK_MOVES:-10000}" --prompts "${SOAK_PROMPTS:-1000}" \
    --embed-moves "${SOAK_EMBED_MOVES:-500}" --embed-prompts "${SOAK_EMBED_PROMPTS:-50}" \
    --seed "${SOAK_SEED:-1}" --json "$BUILD/soak.json" || die "the soak failed (report: build/soak.json)"
  say "soak passed (report: build/soak.json)"
}

# The trainer's sweep (tests/bench/native/train_sweep.cpp): depth 6/12/24/48 x
# lr 1e-3/3e-3/5e-3/1e-2 x pre / post / post + 100-step warmup x 3 seeds, 400
# steps each, on the committed text; writes the table the page's lab draws
# and the demonstration config is chosen from. Niced: it takes an hour or more.
cmd_sweep() {
  deps_build; build
  local commit
  commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
  say "trainer sweep (144 runs of 400 steps) -> web/data/train-sweep.json"
  nice -n 10 "$BUILD/native/normlab_train_sweep" --text "$ROOT/web/data/training-text.zh.txt" \
    --out "$ROOT/web/data/train-sweep.json" --commit "$commit"
}

case "${1:-}" in
  deps) deps_all ;;
  build) deps_build; build ;;
  serve) cmd_serve ;;
  test) cmd_test ;;
  bench) cmd_bench ;;
  fuzz) cmd_fuzz ;;
  dist) cmd_dist ;;
  soak) cmd_soak ;;
  sweep) cmd_sweep ;;
  *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
