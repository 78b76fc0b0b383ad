// The source tree's root, for the tests that read committed files
// (web/data). Only this file is compiled with NORMLAB_SOURCE_DIR, so the
// other test files compile the same in any checkout (and ccache, keyed on
// their command lines with the checkout's path made relative, serves them
// from a clone at another path).
#include "train_fixtures.h"

namespace normlab::test {

std::string source_path(const std::string& relative) {
  return std::string(NORMLAB_SOURCE_DIR) + "/" + relative;
}

}  // namespace normlab::test
