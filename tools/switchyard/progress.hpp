// Progress of a long command: a bar redrawn in place when stderr is a terminal, one plain line
// per step otherwise (logs, CI, pipes).
#pragma once

#include <string>

namespace switchyard::cli {

class Progress {
 public:
  explicit Progress(int total);
  ~Progress();  // ends the bar's line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts step `what`; `done` steps so far.
  void step(const std::string& what);
  // Reports how the current step went (plain lines only: the bar moves on).
  void finished(const std::string& outcome);

 private:
  int total_, done_ = 0;
  bool terminal_;
  std::string current_;
};

}  // namespace switchyard::cli
