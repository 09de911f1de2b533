// How every expression error points into the text: one format for the lexer, the parser and
// evaluation, so that messages read alike whichever stage found the problem.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace switchyard::expr {

// "in expression 'a + $' at position 4: <what>"; positions count characters from 0, and long
// texts are cut to a window around the position.
std::string at_position(std::string_view text, std::size_t position, std::string_view what);

}  // namespace switchyard::expr
