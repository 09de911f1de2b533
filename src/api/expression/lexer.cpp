#include "api/expression/lexer.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>

#include "api/expression/diagnostic.hpp"
#include "switchyard/error.hpp"

namespace switchyard::expr {
namespace {

// Two-character symbols first, so that "**" is not read as two "*".
constexpr std::string_view kSymbols[] = {"**", "//", "<=", ">=", "==", "!=", "+",
                                         "-",  "*",  "/",  "%",  "<",  ">",  "&",
                                         "|",  "^",  "~",  "!",  "(",  ")",  ","};

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string quoted_char(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  char hex[16];
  std::snprintf(hex, sizeof hex, "byte 0x%02x", static_cast<unsigned char>(c));
  return hex;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    for (;;) {
      while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (pos_ == text_.size()) break;
      tokens.push_back(next());
    }
    tokens.push_back({TokenKind::End, {}, text_.size()});
    return tokens;
  }

 private:
  [[noreturn]] void fail(std::size_t position, const std::string& what) const {
    throw ParseError(at_position(text_, position, what));
  }

  Token next() {
    const char c = text_[pos_];
    if (is_digit(c) || c == '.') return number();
    if (is_name_start(c)) {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
      return {TokenKind::Name, text_.substr(start, pos_ - start), start};
    }
    for (const std::string_view symbol : kSymbols)
      if (text_.substr(pos_, symbol.size()) == symbol) {
        pos_ += symbol.size();
        return {TokenKind::Symbol, symbol, pos_ - symbol.size()};
      }
    fail(pos_, "expected a number, a name, an operator, '(', ')' or ',', found " + quoted_char(c) +
                   (c == '=' ? "; compare with '=='" : ""));
  }

  // Takes the longest run that could be meant as one number ("1.5e-3", but also "12ab" or
  // "1.2.3"), so that a malformed number is reported whole rather than split into tokens.
  Token number() {
    const std::size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      const bool exponent_sign =
          (c == '+' || c == '-') && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E');
      if (!is_name_char(c) && c != '.' && !exponent_sign) break;
      ++pos_;
    }
    Token token{TokenKind::Float, text_.substr(start, pos_ - start), start};
    const char* first = token.text.data();
    const char* last = first + token.text.size();
    const bool integer = token.text.find_first_not_of("0123456789") == std::string_view::npos;
    const auto [end, error] = integer ? std::from_chars(first, last, token.integer)
                                      : std::from_chars(first, last, token.number);
    if (error == std::errc::result_out_of_range)
      fail(start, integer ? "the integer " + std::string(token.text) +
                                " does not fit int64; write it as a float, e.g. 1e20"
                          : "the number " + std::string(token.text) +
                                " is outside float64's range (about 2.2e-308 to 1.8e308)");
    if (error != std::errc{} || end != last)
      fail(start, "expected a number, found '" + std::string(token.text) + "'");
    if (integer) token.kind = TokenKind::Integer;
    return token;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
  return Lexer(text).run();
}

std::string describe(const Token& token) {
  if (token.kind == TokenKind::End) return "end of text";
  return "'" + std::string(token.text) + "'";
}

}  // namespace switchyard::expr
