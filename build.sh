#!/usr/bin/env bash
# normlab's one entry point. Every command installs what is missing first.
#
#   ./build.sh deps    install system packages, xsimd 13, Catch2, npm packages
#   ./build.sh build   native library + tests, wasm modules, dist/
#   ./build.sh serve   build, then serve dist/ on http://127.0.0.1:8000
#   ./build.sh test    build, then run every test (native, wasm, Node, Chromium)
#   ./build.sh bench   build, then benchmark against peers (installs them) and the model
#   ./build.sh format  rewrite the C++ (clang-format) and the JavaScript (prettier) in the house style
#   ./build.sh fuzz    run each libFuzzer target for FUZZ_SECONDS (default 60), then
#                      the property tests of the calculator's parser and checks with a random seed
#   ./build.sh dist    build, then zip dist/ as build/normlab-<version>.zip, and the
#                      SCORM 1.2 and 2004 packages build/normlab-<version>-scorm12.zip, -scorm2004.zip
#   ./build.sh screenshots  build, then write the README's pictures, web/screenshots/*.png
#   ./build.sh soak    build, then 10,000 moves + 1,000 prompt changes in Chromium (SOAK_MOVES, SOAK_PROMPTS)
#   ./build.sh sweep   build, then the lab's tables in wasm: its setup's investigation, its default
#                      contrast over 10 seeds, the depth x lr x run sweep, the variants' sweep
#                      -> web/data/*.json
#   ./build.sh fresh-check  both README commands in a fresh Debian 12 chroot (root; ~1 GB download)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=$ROOT/build
DEPS=$BUILD/deps
LOGS=$BUILD/logs
DIST=$ROOT/dist
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Debian's emcc needs its JS optimizer's acorn, which lives here.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# Each line says how many seconds the command has run (CI reads where time goes).
say() { printf '[normlab %4ds] %s\n' "$SECONDS" "$*"; }
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
# ccache keeps what the compilers made (in ~/.cache/ccache, or CCACHE_DIR),
# so a build from a clean clone recompiles only what changed (see build()).
APT_BUILD=(cmake make g++ emscripten binaryen catch2 ccache)
# Chromium, and the only fonts the browser tests render with (see
# font_config): the page's phone layout depends on glyph widths, so a test
# must not pass or fail with the fonts a machine happens to have. The CJK font
# also lets the zh-CN page show its text. fontconfig gives fc-list, with which
# a test checks what Chromium sees.
APT_FONTS=(fonts-dejavu-core fonts-dejavu-extra fonts-wqy-microhei)
APT_BROWSER=(chromium fontconfig "${APT_FONTS[@]}")
# clang builds the sanitized tests and the fuzzers; libFuzzer and the
# sanitizer runtimes are in libclang-rt-dev.
APT_CHECK=(clang libclang-rt-dev)
# The zips of `dist` and the SCORM packages, which the tests unpack.
APT_ZIP=(zip unzip)
# The C++ formatter (Debian 12's is clang-format 14; .clang-format is its
# configuration). The JavaScript formatter, prettier, is an npm devDependency
# configured in package.json.
APT_FORMAT=(clang-format)

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

# Node.js >= 20 with npm runs the bundler and the tests. Where the machine's
# node is missing or older (Debian 12 and Ubuntu 24.04 ship 18), build.sh
# takes a pinned Node.js LTS from the npm registry: the node-linux-<arch>
# package holds the official binary, the npm package npm itself. Both are
# checked against pinned SHA-512 sums (their registry integrity), unpacked
# under build/deps/node, and put first on PATH for every later step; the
# system itself changes only through apt (curl to download them).
NODE_VERSION=20.20.2
NPM_VERSION=11.19.1
NODE_SHA512_x64=3de1d033cc007661ed640d66068732819c6ce4b8945adb097b3413901774898f7cecaa46ac3d4edad544c9dbcc662b9771e45a9f1b7bae34e70c407038fba3a1
NODE_SHA512_arm64=2c25c99cd4c58b21ae601c36819488e4e04531b92300fb7cb2a0ff34aad6a04d90983812b9b4ea16783a19a349f4427c1e9c413067165a96db72ce15a3e0a71a
NPM_SHA512=cedb312b1b7f92421a02cfb68b4194e88f8346651dacd6acc5364a25ef5309d4a32b19616a1ff8aff865e7280c0fa5c0835a99f5cd93368991e2a80ec9da75d2
NODE_MIN_MAJOR=20
REGISTRY=${npm_config_registry:-${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org}}
REGISTRY=${REGISTRY%/}

node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# registry_get PACKAGE VERSION SHA512 DEST: the package's tarball, checked,
# unpacked into DEST (its package/ folder's contents).
registry_get() {
  local name=$1 version=$2 sum=$3 dest=$4 tgz
  tgz=$DEPS/downloads/$name-$version.tgz
  mkdir -p "$DEPS/downloads"
  if ! [ -f "$tgz" ] || ! echo "$sum  $tgz" | sha512sum -c --status; then
    run "download-$name" curl -fsSL --retry 3 -o "$tgz.part" "$REGISTRY/$name/-/$name-$version.tgz"
    echo "$sum  $tgz.part" | sha512sum -c --status ||
      die "$name-$version.tgz from $REGISTRY does not match its pinned SHA-512"
    mv "$tgz.part" "$tgz"
  fi
  rm -rf "$dest" && mkdir -p "$dest" && tar -xzf "$tgz" -C "$dest" --strip-components=1
}

ensure_node() {
  local home=$DEPS/node
  if [ -x "$home/bin/node" ] && [ "$("$home/bin/node" --version)" = "v$NODE_VERSION" ]; then
    export PATH=$home/bin:$PATH
  elif ! command -v npm >/dev/null 2>&1 || [ "$(node_major)" -lt $NODE_MIN_MAJOR ]; then
    local arch sum
    case "$(uname -m)" in
      x86_64) arch=x64 sum=$NODE_SHA512_x64 ;;
      aarch64) arch=arm64 sum=$NODE_SHA512_arm64 ;;
      *) die "no Node.js >= $NODE_MIN_MAJOR here, and build.sh has no pinned build for $(uname -m): install Node.js $NODE_MIN_MAJOR+ with npm" ;;
    esac
    say "node $(command -v node >/dev/null 2>&1 && node --version || echo missing) is not Node.js >= $NODE_MIN_MAJOR with npm: taking Node.js $NODE_VERSION and npm $NPM_VERSION from the npm registry into build/deps/node"
    apt_install curl ca-certificates
    registry_get "node-linux-$arch" "$NODE_VERSION" "$sum" "$home.tmp"
    registry_get npm "$NPM_VERSION" "$NPM_SHA512" "$home.tmp/lib/node_modules/npm"
    cat >"$home.tmp/bin/npm" <<'NPM'
#!/bin/sh
here=$(dirname "$(readlink -f "$0")")
exec "$here/node" "$here/../lib/node_modules/npm/bin/npm-cli.js" "$@"
NPM
    chmod +x "$home.tmp/bin/npm"
    rm -rf "$home" && mv "$home.tmp" "$home"
    export PATH=$home/bin:$PATH
  fi
  # Never run anything on a Node that is too old, whatever PATH holds.
  local major; major=$(node_major)
  [ "$major" -ge $NODE_MIN_MAJOR ] || die "node $(node --version 2>/dev/null) is older than $NODE_MIN_MAJOR"
}

npm_ci() { # npm_ci DIR: install DIR's locked packages when the lockfile changed
  local dir=$1 stamp=$1/node_modules/.normlab-lock
  [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp" && return 0
  say "installing npm packages in ${dir/#"$ROOT"/.}"
  # onnxruntime-node (a bench peer) ships its CPU binaries in the package; its
  # postinstall would try to download GPU providers, which cannot work here.
  (cd "$dir" && run "npm-ci-$(basename "$dir")" env ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund)
  cp "$dir/package-lock.json" "$stamp"
}

# The fontconfig file the browser tests run Chromium with (tests/browser/
# page-support.mjs): the folders of the APT_FONTS packages and nothing else,
# with the system's rules for them (/etc/fonts/conf.d, without the user's and
# the machine's local additions), and a cache of its own.
font_config() {
  local dir=$BUILD/fontconfig dirs f
  dirs=$(dpkg -L "${APT_FONTS[@]}" | grep -E '\.(ttf|ttc|otf)$' | xargs -n1 dirname | sort -u)
  mkdir -p "$dir/cache"
  {
    echo '<?xml version="1.0"?>'
    echo '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">'
    echo '<!-- Written by build.sh: only the fonts it installs. -->'
    echo '<fontconfig>'
    for f in $dirs; do echo "  <dir>$f</dir>"; done
    for f in /etc/fonts/conf.d/*.conf; do
      case "$(basename "$f")" in 50-user.conf | 51-local.conf) continue ;; esac
      echo "  <include ignore_missing=\"yes\">$f</include>"
    done
    echo "  <cachedir>$dir/cache</cachedir>"
    echo '</fontconfig>'
  } >"$dir/fonts.conf.tmp"
  mv "$dir/fonts.conf.tmp" "$dir/fonts.conf"
}

deps_build() { apt_install "${APT_BUILD[@]}"; ensure_node; fetch_xsimd; stage_catch2; npm_ci "$ROOT"; }
deps_browser() { apt_install "${APT_BROWSER[@]}"; font_config; }
deps_all() { deps_build; deps_browser; apt_install "${APT_CHECK[@]}" "${APT_ZIP[@]}" "${APT_FORMAT[@]}"; }

# ---------------------------------------------------------------- build
cmake_args=(-DNORMLAB_XSIMD_INCLUDE="$DEPS/xsimd/include" -DNORMLAB_CATCH2_INCLUDE="$DEPS/catch2"
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Paths inside the checkout are made relative before ccache hashes a
# compile, and the directory it runs in is left out of the hash (debug
# info), so a clone at another path hits what an earlier one compiled.
# Depend mode takes the headers a compile read from its -MD file instead of
# running the preprocessor first, so a compile the cache lacks costs no more
# than without ccache.
export CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1

build() {
  ccache --zero-stats >/dev/null
  run cmake-native cmake -S "$ROOT" -B "$BUILD/native" "${cmake_args[@]}"
  run build-native cmake --build "$BUILD/native" -j "$JOBS"
  [ -f "$BUILD/wasm/CMakeCache.txt" ] || run cmake-wasm emcmake cmake -S "$ROOT" -B "$BUILD/wasm" "${cmake_args[@]}"
  run build-wasm cmake --build "$BUILD/wasm" -j "$JOBS"
  run bundle node "$ROOT/wasm/bundle.mjs" "$BUILD/wasm" "$DIST"
  run page node "$ROOT/web/build.mjs" "$DIST"
  say "built dist/ ($(du -sh "$DIST" | cut -f1)); $(ccache_hits)"
}

# What ccache served since build() began (its statistics are zeroed there).
ccache_hits() {
  ccache --print-stats 2>/dev/null | awk -F'\t' '
    $1 ~ /^(direct|preprocessed)_cache_hit$/ { hit += $2 } $1 == "cache_miss" { miss += $2 }
    END { printf "ccache: %d compiles served from the cache, %d compiled", hit, miss }'
}

# The native library, Catch2 tests and fuzzers under AddressSanitizer +
# UBSan (NORMLAB_FUZZ implies NORMLAB_SANITIZE), in build/sanitize. clang,
# because libFuzzer needs it (g++ builds the shipped native library, so the
# tests also meet a second compiler). Debug keeps the kernels' asserts on;
# the library itself still builds at -O3 -march=native, like build/native.
# NORMLAB_FILL_UNSET_NAN fills every buffer that is not zeroed with NaN when
# it grows and at each call's start (model/unset_floats.h), so every Catch2
# case of this build checks that each is written before it is read.
build_checked() { # build_checked TARGET...
  run cmake-sanitize cmake -S "$ROOT" -B "$BUILD/sanitize" "${cmake_args[@]}" \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DNORMLAB_FUZZ=ON -DNORMLAB_FILL_UNSET_NAN=ON
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
# ---------------------------------------------------------------- format
# One style per language: .clang-format for the C++ in src/, wasm/ and tests/,
# package.json's "prettier" for every .js, .mjs, .cjs and .ts file in wasm/,
# web/ and tests/ (not in node_modules). `check` reports the files that
# differ; `write` rewrites them.
JS_SOURCES=('wasm/**/*.{js,mjs,cjs,ts}' 'web/**/*.{js,mjs,cjs,ts}' 'tests/**/*.{js,mjs,cjs,ts}')
cpp_sources() {
  (cd "$ROOT" && find src wasm tests -name node_modules -prune -o -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) -print | sort)
}

format_sources() {
  local mode=$1 files
  mapfile -t files < <(cpp_sources)
  if [ "$mode" = write ]; then
    (cd "$ROOT" && clang-format -i "${files[@]}" && node_modules/.bin/prettier --write --log-level warn "${JS_SOURCES[@]}")
  else
    local ok=0 out
    out=$(cd "$ROOT" && clang-format --dry-run --Werror "${files[@]}" 2>&1) || ok=1
    [ -z "$out" ] || grep -oE '^[^: ]+:[0-9]+:[0-9]+: error' <<<"$out" | cut -d: -f1 | sort -u | sed 's/^/[normlab]   not clang-formatted: /'
    (cd "$ROOT" && node_modules/.bin/prettier --check --log-level warn "${JS_SOURCES[@]}") || ok=1
    [ $ok -eq 0 ] || say "  ./build.sh format rewrites them in the house style"
    return $ok
  fi
}

cmd_format() {
  deps_build; apt_install "${APT_FORMAT[@]}"
  format_sources write
  say "formatted: $(cpp_sources | wc -l) C++ files (clang-format $(clang-format --version | grep -oE '[0-9]+\.[0-9.]+' | head -n 1)), JavaScript (prettier $("$ROOT"/node_modules/.bin/prettier --version))"
}

# On one core each, at once (cmd_test): the lab's committed tables, some of
# their runs trained again (tests/tables); and the sanitized Catch2 binary,
# the fuzz corpus and the two wasm Catch2 binaries.
table_tests() {
  say "the lab's committed tables, and the default seed's runs trained again (wasm SIMD128, node --test)"
  NORMLAB_TABLE_THREADS=1 node --test "$ROOT/tests/tables/"
}
checked_and_wasm_tests() {
  local failed=0 flavour
  say "Catch2, native, under AddressSanitizer + UBSan (clang), unset buffers NaN"
  "$BUILD/sanitize/normlab_tests" || failed=1
  say "fuzz targets, replaying tests/fuzz/corpus"
  fuzz_replay || failed=1
  for flavour in simd scalar; do
    say "Catch2, wasm ($flavour) under Node"
    node "$BUILD/wasm/normlab_tests_wasm_$flavour.cjs" || failed=1
  done
  return $failed
}

# in_parallel NAME FN NAME FN: both functions at once, each into its own log;
# the logs are printed in that order once both are done. Fails if either does.
in_parallel() {
  local first=$LOGS/$1.out second=$LOGS/$3.out failed=0 pid
  mkdir -p "$LOGS"
  "$2" >"$first" 2>&1 &
  pid=$!
  "$4" >"$second" 2>&1 || failed=1
  wait "$pid" || failed=1
  cat "$first" "$second"
  return $failed
}

cmd_test() {
  deps_all; build
  local failed=0
  say "formatting: clang-format (.clang-format) and prettier (package.json)"
  format_sources check || failed=1
  say "Catch2, native"
  "$BUILD/native/normlab_tests" || failed=1
  say "building the sanitized Catch2 binary and the fuzzers (clang)"
  build_checked normlab_tests normlab_fuzzers
  in_parallel tables table_tests checked checked_and_wasm_tests || failed=1
  # Two test files at a time: most of a browser test's time is Chromium's
  # own, and two files keep both cores busier than one (here 785 to 896 s
  # in four runs against 891 s for the whole set).
  say "JS API and browser tests (node --test)"
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium} node --test --test-concurrency=2 "$ROOT"/tests/js/ "$ROOT"/tests/browser/ || failed=1
  [ $failed -eq 0 ] || die "some tests failed"
  say "all tests passed"
}

cmd_bench() {
  deps_build; build
  run build-wasm-bench cmake --build "$BUILD/wasm" -j "$JOBS" --target normlab_bench_train_wasm_simd normlab_bench_train_wasm_scalar
  npm_ci "$ROOT/tests/bench"
  deps_browser
  # Each step's output is shown and kept in build/bench/<step>.log; the last
  # step writes tests/bench/RESULTS.md, headline.json and the README's table
  # from the logs and the steps' JSON.
  local logs=$BUILD/bench chromium=${CHROMIUM:-/usr/bin/chromium}
  mkdir -p "$logs"
  say "native kernels (-O3 -march=native)"
  "$BUILD/native/normlab_bench_native" --json "$BUILD/bench-native.json" | tee "$logs/native.log"
  say "native trainer: ms per training step, FLOPs, matmul GFLOP/s"
  "$BUILD/native/normlab_bench_train" --text "$ROOT/web/data/training-text.zh.txt" --json "$BUILD/bench-train-native.json" \
    | tee "$logs/native-train.log"
  say "wasm and peers (Node $(node --version), single thread)"
  node "$ROOT/tests/bench/bench.mjs" --native "$BUILD/bench-native.json" --md "$BUILD/bench.md" | tee "$logs/kernels.log"
  say "synthetic model: creation, forward, gradients, memory, gradient flow"
  node "$ROOT/tests/bench/model-bench.mjs" --md "$BUILD/bench-model.md" | tee "$logs/model.log"
  say "trainer: ms per step in wasm (SIMD128, scalar) and natively, against tfjs-backend-wasm"
  node "$ROOT/tests/bench/train-bench.mjs" --native "$BUILD/bench-train-native.json" --wasm-bench "$BUILD/wasm" \
    --md "$BUILD/bench-train.md" | tee "$logs/train.log"
  say "the page's interaction budget (headless Chromium)"
  CHROMIUM=$chromium node "$ROOT/tests/bench/page-perf.mjs" --json "$BUILD/bench-page.json" | tee "$logs/page.log"
  say "the training lab against the page's sliders (headless Chromium)"
  CHROMIUM=$chromium node "$ROOT/tests/bench/lab-perf.mjs" | tee "$logs/lab.log"
  say "phone-class load and lab step (390 × 844, CPU throttled 1×, 4×, 6×)"
  CHROMIUM=$chromium node "$ROOT/tests/bench/phone-perf.mjs" --json "$BUILD/bench-phone.json" | tee "$logs/phone.log"
  say "the report: tests/bench/RESULTS.md, tests/bench/headline.json, the README's headline table"
  node "$ROOT/tests/bench/results.mjs" --build "$BUILD"
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
  # The calculator's parser is JavaScript (web/src/vector-parse.js): its
  # property tests, with a seed of their own and 50 times the runs of a
  # test run. A failure prints its seed and counterexample; NORMLAB_FC_SEED
  # replays it. The calculator's checks (web/src/challenge-machine.js) get
  # 20 times theirs, on the same seed.
  local seed=${NORMLAB_FC_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
  say "property tests of web/src/vector-parse.js, seed $seed, 100000 runs each"
  if ! NORMLAB_FC_SEED=$seed NORMLAB_FC_RUNS=100000 node --test "$ROOT/tests/js/vector-parse.property.test.mjs" \
    >"$LOGS/fuzz-vector-parse.log" 2>&1; then
    grep -E -A12 '^not ok' "$LOGS/fuzz-vector-parse.log" >&2
    say "  the property tests found a failure (log: build/logs/fuzz-vector-parse.log)"
    failed=1
  fi
  say "property tests of web/src/challenge-machine.js, seed $seed, 20000 runs each"
  if ! NORMLAB_FC_SEED=$seed NORMLAB_FC_RUNS=20000 node --test "$ROOT/tests/js/challenges.property.test.mjs" \
    >"$LOGS/fuzz-challenges.log" 2>&1; then
    grep -E -A12 '^not ok' "$LOGS/fuzz-challenges.log" >&2
    say "  the property tests found a failure (log: build/logs/fuzz-challenges.log)"
    failed=1
  fi
  [ $failed -eq 0 ] || die "fuzzing found failures (inputs in build/fuzz/artifacts, seeds in build/logs)"
  say "no failures"
}

cmd_serve() {
  deps_build; build
  say "open http://127.0.0.1:${PORT:-8000}/  (dist/index.html also opens directly from disk)"
  exec node "$ROOT/web/serve.mjs" "$DIST" "${PORT:-8000}"
}

# The release artefacts for course platforms: dist/ as one zip, and as a
# SCORM 1.2 and a SCORM 2004 package, named after the version in
# package.json (the one place it is set).
cmd_dist() {
  deps_build; apt_install "${APT_ZIP[@]}"; build
  local version zipfile
  version=$(node -p "require('$ROOT/package.json').version")
  zipfile=$BUILD/normlab-$version.zip
  rm -f "$zipfile"
  (cd "$DIST" && zip -qr -X "$zipfile" .)
  say "wrote ${zipfile#"$ROOT"/} ($(du -h "$zipfile" | cut -f1))"
  # The same files with an imsmanifest.xml each: one SCO (web/scorm/).
  local zips
  zips=$(node "$ROOT/web/scorm/package.mjs" "$DIST" "$BUILD") || die "the SCORM packages failed"
  for zipfile in $zips; do
    say "wrote ${zipfile#"$ROOT"/} ($(du -h "$zipfile" | cut -f1))"
  done
}

# A long session in headless Chromium (tests/browser/soak.mjs): scripted
# moves over every control of the page, then of the embed demo's elements;
# fails on any console error, wasm memory growth after warm-up, JS heap
# growth past its tolerance, or a page that stops responding. The report
# goes to build/soak.json.
# The README's pictures: the test that keeps them current, told to write them.
cmd_screenshots() {
  deps_build; deps_browser; build
  say "the README's screenshots (web/screenshots/page.png, lab.png)"
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium} NORMLAB_WRITE_SCREENSHOTS=1 \
    node --test "$ROOT/tests/browser/readme-screenshots.test.mjs" || die "the screenshots were not written"
}

cmd_soak() {
  deps_build; deps_browser; build
  say "soak: headless Chromium, ${SOAK_MOVES:-10000} moves and ${SOAK_PROMPTS:-1000} prompt changes on the page, ${SOAK_EMBED_MOVES:-500} and ${SOAK_EMBED_PROMPTS:-50} on the embed demo"
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium} node "$ROOT/tests/browser/soak.mjs" \
    --moves "${SOAK_MOVES:-10000}" --prompts "${SOAK_PROMPTS:-1000}" \
    --embed-moves "${SOAK_EMBED_MOVES:-500}" --embed-prompts "${SOAK_EMBED_PROMPTS:-50}" \
    --seed "${SOAK_SEED:-1}" --json "$BUILD/soak.json" || die "the soak failed (report: build/soak.json)"
  say "soak passed (report: build/soak.json)"
}

# The training lab's tables, each trained in the WebAssembly SIMD128 build
# under Node, one run per core, on each language's committed text
# (web/data/training-text.*.txt), with the options the lab's own code builds:
#   lab-setup.mjs       why the old setup's pre-norm sat on the plateau, and
#                       what each candidate setup did over 10 seeds
#                       -> web/data/lab-setup.json, lab-setup.md (~30 min)
#   lab-robustness.mjs  the default contrast over seeds 1..10
#                       -> web/data/lab-robustness.json (~10 min)
#   train-sweep.mjs     depth x lr x run x 5 seeds, the lab's map and
#                       learning-rate window -> web/data/train-sweep.json (~90 min)
#   variant-sweep.mjs   depth x lr x the normalization variants current models
#                       use x 5 seeds, with each run's largest attention logit
#                       and stream lengths -> web/data/variant-sweep.json (~1 h)
# Times on two cores. The tests check the page's claims on these tables and
# train some of their rows again, comparing bit for bit.
cmd_sweep() {
  deps_build; build
  say "the lab's setup: probes and candidates -> web/data/lab-setup.json, lab-setup.md"
  nice -n 10 node "$ROOT/tests/bench/lab-setup.mjs"
  say "the default contrast over seeds -> web/data/lab-robustness.json"
  nice -n 10 node "$ROOT/tests/bench/lab-robustness.mjs"
  say "the sweep -> web/data/train-sweep.json"
  nice -n 10 node "$ROOT/tests/bench/train-sweep.mjs"
  say "the variants' sweep -> web/data/variant-sweep.json"
  nice -n 10 node "$ROOT/tests/bench/variant-sweep.mjs"
}

# ---------------------------------------------------------------- fresh-check
# Both README commands on a fresh Debian 12 minimal system, as a new user runs
# them: debootstrap --variant=minbase (no Node, no compiler, no git) from the
# Debian mirror apt uses here, the repository's committed HEAD cloned into it,
# then `serve` and `test`, each in its own copy of that system (chroot): `serve`
# passes when the page answers on its port, `test` when it exits 0. Needs
# root; downloads about 1 GB of packages and takes tens of minutes. Logs and
# build/fresh/report.txt under build/fresh.
FRESH_SUITE=bookworm

apt_mirror() { # the first Debian archive (not security) in apt's sources
  local uri
  uri=$({
    grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
      awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; break } }'
    grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{ print $2 }'
  } | grep -v -- '-security' | grep -E '/debian/?$' | head -n 1)
  echo "${uri:-http://deb.debian.org/debian}"
}

mounts_under() { awk -v root="$1/" 'index($2, root) == 1 { print $2 }' /proc/mounts; }

chroot_mount() {
  mount -t proc proc "$1/proc"
  mount -t sysfs sysfs "$1/sys"
  mount --rbind /dev "$1/dev" && mount --make-rslave "$1/dev"
}

chroot_umount() {
  local m
  for m in $(mounts_under "$1" | sort -r); do umount "$m" 2>/dev/null || umount -l "$m"; done
  [ -z "$(mounts_under "$1")" ] || die "could not unmount everything under $1"
}

# Removes a fresh root, never while anything is still mounted inside it.
fresh_remove() {
  [ -e "$1" ] || return 0
  chroot_umount "$1"
  rm -rf --one-file-system "$1"
}

# A command in the chroot runs as root with a clean environment, but for this
# machine's network settings: the proxy variables and the extra CA file Node
# is told to trust, where they are set (a machine behind a TLS-inspecting
# proxy has them, and its local CA certificates, which are copied in too).
fresh_env() {
  local v
  FRESH_ENV=(/usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
  for v in NODE_EXTRA_CA_CERTS http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
    [ -n "${!v:-}" ] && FRESH_ENV+=("$v=${!v}")
  done
  return 0
}

cmd_fresh_check() {
  [ "$(id -u)" -eq 0 ] || die "fresh-check needs root (debootstrap, chroot, mounts)"
  apt_install debootstrap git curl ca-certificates
  local fresh=$BUILD/fresh mirror base report port=${FRESH_PORT:-18000}
  mirror=${FRESH_MIRROR:-$(apt_mirror)}
  base=$fresh/base
  report=$fresh/report.txt
  mkdir -p "$fresh"
  if ! [ -f "$base/.normlab-complete" ]; then
    fresh_remove "$base"
    say "debootstrap --variant=minbase $FRESH_SUITE from $mirror into build/fresh/base"
    run debootstrap debootstrap --variant=minbase "$FRESH_SUITE" "$base" "$mirror"
    # A Debian 12 install also has its updates and security suites.
    printf 'deb %s %s main\ndeb %s %s-updates main\ndeb http://deb.debian.org/debian-security %s-security main\n' \
      "$mirror" "$FRESH_SUITE" "$mirror" "$FRESH_SUITE" "$FRESH_SUITE" >"$base/etc/apt/sources.list"
    touch "$base/.normlab-complete"
  fi
  local commit; commit=$(git -C "$ROOT" rev-parse --short HEAD)
  {
    echo "fresh-check of normlab $commit ($(date -u '+%Y-%m-%d %H:%M UTC'))"
    echo "system: Debian $(cat "$base/etc/debian_version") minbase from $mirror; no node, cc or git: $(chroot "$base" sh -c 'command -v node cc git' || echo none)"
  } >"$report"
  local failed=0 name
  fresh_env
  for name in serve test; do
    local root=$fresh/$name log=$fresh/$name.log start seconds status
    fresh_remove "$root"
    cp -a "$base" "$root"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
      mkdir -p "$root/usr/local/share/ca-certificates"
      cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    fi
    git clone -q "$ROOT" "$root/root/normlab"
    chroot_mount "$root"
    say "fresh-check: ./build.sh $name in build/fresh/$name (log: build/fresh/$name.log)"
    start=$(date +%s)
    if [ "$name" = serve ]; then
      # In a session of its own, so that its whole process group can be stopped.
      setsid chroot "$root" "${FRESH_ENV[@]}" sh -c "cd /root/normlab && PORT=$port exec ./build.sh serve" >"$log" 2>&1 &
      local pid=$! url=http://127.0.0.1:$port/ ok=0
      while kill -0 "$pid" 2>/dev/null && [ $(($(date +%s) - start)) -lt 5400 ]; do
        if curl -fsS "${url}index.html" 2>/dev/null | grep -q '<script defer src="main.js">' &&
          curl -fsS -o /dev/null "${url}main.js" && curl -fsS -o /dev/null "${url}normlab_simd.js"; then
          ok=1
          break
        fi
        sleep 5
      done
      seconds=$(($(date +%s) - start))
      kill -- -"$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      status=$([ $ok = 1 ] && echo "pass: the page answered on $url" || echo "FAIL: the page never answered")
    else
      if chroot "$root" "${FRESH_ENV[@]}" sh -c 'cd /root/normlab && ./build.sh test' >"$log" 2>&1; then
        status=pass
      else
        status="FAIL (exit $?)"
      fi
      seconds=$(($(date +%s) - start))
      status="$status: $(grep -E '^# (tests|pass|fail) ' "$log" | tr '\n' ' ')"
    fi
    chroot_umount "$root"
    case "$status" in FAIL*) failed=1 ;; esac
    printf './build.sh %-5s %s in %dm %02ds\n' "$name" "$status" $((seconds / 60)) $((seconds % 60)) | tee -a "$report"
  done
  say "report: build/fresh/report.txt"
  [ $failed -eq 0 ] || die "fresh-check failed (logs in build/fresh)"
}

case "${1:-}" in
  deps) deps_all ;;
  build) deps_build; build ;;
  serve) cmd_serve ;;
  test) cmd_test ;;
  bench) cmd_bench ;;
  format) cmd_format ;;
  fuzz) cmd_fuzz ;;
  dist) cmd_dist ;;
  soak) cmd_soak ;;
  screenshots) cmd_screenshots ;;
  sweep) cmd_sweep ;;
  fresh-check) cmd_fresh_check ;;
  *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
