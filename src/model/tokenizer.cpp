// The byte-level toy tokenizer (see tokenizer.h).
#include "model/tokenizer.h"

namespace normlab::model {

Problem check_prompt(const std::string& prompt_utf8) {
  if (prompt_utf8.empty()) return {ProblemCode::kEmpty, Field::kPrompt, "prompt is empty"};
  if (prompt_utf8.size() > static_cast<size_t>(kMaxPromptTokens)) {
    return {ProblemCode::kTooLong, Field::kPrompt,
            "prompt longer than " + std::to_string(kMaxPromptTokens) + " tokens (" +
                std::to_string(prompt_utf8.size()) + " UTF-8 bytes)"};
  }
  return {};
}

std::string validate_prompt(const std::string& prompt_utf8) {
  return check_prompt(prompt_utf8).message;
}

std::vector<int> tokenize(const std::string& prompt_utf8) {
  std::vector<int> tokens(prompt_utf8.size());
  for (size_t i = 0; i < prompt_utf8.size(); i++) {
    tokens[i] = static_cast<unsigned char>(prompt_utf8[i]);
  }
  return tokens;
}

}  // namespace normlab::model
