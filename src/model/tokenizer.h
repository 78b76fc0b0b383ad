// The toy tokenizer: one token per UTF-8 byte.
//
// A prompt's tokens are the bytes of its UTF-8 encoding, as integers 0..255,
// so the vocabulary has 256 entries and any text (English, Chinese, emoji)
// tokenizes without an unknown token. An ASCII character is one token, a
// Chinese character three, an emoji four. There is no BOS token.
#pragma once

#include <string>
#include <vector>

#include "model/problem.h"

namespace normlab::model {

constexpr int kMaxPromptTokens = 64;

// No problem if the prompt can be run, else {kEmpty, kPrompt, "prompt is
// empty"} or {kTooLong, kPrompt, "prompt longer than 64 tokens (N UTF-8
// bytes)"}.
Problem check_prompt(const std::string& prompt_utf8);
// check_prompt's message alone: empty if the prompt can be run.
std::string validate_prompt(const std::string& prompt_utf8);

// Token ids of a UTF-8 string: its bytes. tokens: (prompt.size())
std::vector<int> tokenize(const std::string& prompt_utf8);

}  // namespace normlab::model
