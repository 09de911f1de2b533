#include "api/expression/diagnostic.hpp"

namespace switchyard::expr {
namespace {

// Enough to recognise the place; a fuzzer's 200,000 parentheses would bury the message.
constexpr std::size_t kExcerptChars = 80;

std::string excerpt(std::string_view text, std::size_t position) {
  if (text.size() <= kExcerptChars) return "'" + std::string(text) + "'";
  const std::size_t start = position > kExcerptChars / 2 ? position - kExcerptChars / 2 : 0;
  const std::string_view window = text.substr(start, kExcerptChars);
  return "'" + std::string(start > 0 ? "..." : "") + std::string(window) +
         (start + window.size() < text.size() ? "..." : "") + "'";
}

}  // namespace

std::string at_position(std::string_view text, std::size_t position, std::string_view what) {
  return "in expression " + excerpt(text, position) + " at position " + std::to_string(position) +
         ": " + std::string(what);
}

}  // namespace switchyard::expr
