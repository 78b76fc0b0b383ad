// Catch2's main for every C++ test file (native and wasm builds).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
