// Splits expression text into tokens, each with its position in the text (from 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard::expr {

enum class TokenKind : std::uint8_t { Integer, Float, Name, Symbol, End };

struct Token {
  TokenKind kind;
  std::string_view text;  // as written; empty for End
  std::size_t position;   // End sits at the text's size
  std::int64_t integer = 0;
  double number = 0;

  bool is(std::string_view spelling) const {
    return (kind == TokenKind::Symbol || kind == TokenKind::Name) && text == spelling;
  }
};

// Ends with one End token. Throws ParseError on a character no token starts with and on a
// malformed or out-of-range number.
std::vector<Token> tokenize(std::string_view text);

// A token as messages quote it: 'x', or "end of text".
std::string describe(const Token& token);

}  // namespace switchyard::expr
