#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace switchyard::cli {

Progress::Progress(int total) : total_(total), terminal_(isatty(fileno(stderr)) != 0) {}

Progress::~Progress() {
  if (terminal_) fmt::print(stderr, "\r\033[K");
}

void Progress::step(const std::string& what) {
  current_ = what;
  if (!terminal_) return;
  constexpr int kWidth = 30;
  const int filled = total_ > 0 ? done_ * kWidth / total_ : kWidth;
  fmt::print(stderr, "\r\033[K[{}{}] {}/{} {}", std::string(filled, '#'),
             std::string(kWidth - filled, '.'), done_, total_, what);
  std::fflush(stderr);
}

void Progress::finished(const std::string& outcome) {
  ++done_;
  if (!terminal_) fmt::print(stderr, "[{}/{}] {}: {}\n", done_, total_, current_, outcome);
}

}  // namespace switchyard::cli
