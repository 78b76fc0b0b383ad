// The training text: the committed snapshot's SHA-256 against the recorded
// one (a changed text must be a deliberate new snapshot: rerun
// web/data/extract-training-text.mjs and the sweep), its split, the unigram
// entropy (a worked example and the committed text's value), the held-out
// windows and the seeded batches.
//
// n = text bytes, T = seq, B = batch
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sha256.h"
#include "train/text.h"
#include "train_fixtures.h"

using namespace normlab;
using namespace normlab::test;

TEST_CASE("SHA-256 of the committed training text is the recorded one", "[train][text]") {
  // FIPS 180-4 examples first.
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const std::string recorded = read_file(source_path("web/data/training-text.zh.sha256"));
  REQUIRE(recorded.size() > 64);
  const std::string& text = training_text();
  std::printf("training text: %zu bytes, sha256 %s\n", text.size(), sha256_hex(text).c_str());
  CHECK(sha256_hex(text) == recorded.substr(0, 64));
  CHECK(recorded.substr(64) == "  training-text.zh.txt\n");
}

TEST_CASE("split, unigram entropy and held-out windows", "[train][text]") {
  // "aab": p = 2/3, 1/3: -(2/3 ln 2/3 + 1/3 ln 1/3) = 0.636514 nats.
  const uint8_t aab[] = {'a', 'a', 'b'};
  CHECK(train::unigram_entropy(aab, 3) == Approx(0.6365141682948128).epsilon(1e-12));
  const uint8_t same[] = {7, 7, 7, 7};
  CHECK(train::unigram_entropy(same, 4) == 0.0);
  std::vector<uint8_t> all(256 * 3);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint8_t>(i);
  CHECK(train::unigram_entropy(all.data(), static_cast<int>(all.size())) ==
        Approx(std::log(256.0)).epsilon(1e-12));

  const std::string& text = training_text();
  const train::TextSplit split = train::split_text(text);
  CHECK(split.n_heldout == static_cast<int>(text.size() / 10));
  CHECK(split.n_train + split.n_heldout == static_cast<int>(text.size()));
  CHECK(split.heldout == split.train + split.n_train);
  const double h = train::unigram_entropy(split.train, split.n_train);
  std::printf("training split %d bytes, held out %d, unigram entropy %.4f nats, %d windows of 64\n",
              split.n_train, split.n_heldout, h, train::heldout_windows(split, 64));
  // Chinese UTF-8 prose: ~146 distinct bytes, entropy well above English's ~3.2.
  CHECK(h > 4.0);
  CHECK(h < std::log(256.0));

  // Windows: whole, consecutive, inside the held-out split.
  const int T = 64, windows = train::heldout_windows(split, T);
  CHECK(windows == (split.n_heldout - 1) / T);
  CHECK(windows * T + 1 <= split.n_heldout);
  CHECK((windows + 1) * T + 1 > split.n_heldout);
  std::vector<uint8_t> in(T), tg(T);
  train::heldout_window(in.data(), tg.data(), split, windows - 1, T);
  for (int t = 0; t < T; ++t) {
    CHECK(in[t] == split.heldout[(windows - 1) * T + t]);
    CHECK(tg[t] == split.heldout[(windows - 1) * T + t + 1]);
  }
}

TEST_CASE("batches: targets follow inputs, depend on seed and step only", "[train][text]") {
  const std::string& text = training_text();
  const train::TextSplit split = train::split_text(text);
  const int B = 8, T = 64;
  std::vector<uint8_t> in(B * T), tg(B * T), in2(B * T), tg2(B * T);
  train::sample_batch(in.data(), tg.data(), split, 1, 0, B, T);
  // Each sequence is a window of the training split, its targets shifted by one.
  for (int b = 0; b < B; ++b) {
    const uint8_t* seq = in.data() + b * T;
    bool found = false;
    for (int start = 0; start + T < split.n_train && !found; ++start) {
      found = std::equal(seq, seq + T, split.train + start) &&
              std::equal(tg.data() + b * T, tg.data() + (b + 1) * T, split.train + start + 1);
    }
    CHECK(found);
  }
  train::sample_batch(in2.data(), tg2.data(), split, 1, 0, B, T);
  CHECK(in == in2);
  train::sample_batch(in2.data(), tg2.data(), split, 1, 1, B, T);
  CHECK(in != in2);
  train::sample_batch(in2.data(), tg2.data(), split, 2, 0, B, T);
  CHECK(in != in2);
}
