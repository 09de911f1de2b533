// The ranks of an MPI job that a distributed array is spread over. Switchyard never owns MPI:
// the program initialises it (or lets Environment do so) and each rank keeps its own scheduler
// and devices; MPI only moves data between ranks.
#pragma once

#include <mpi.h>

#include "switchyard/error.hpp"

namespace switchyard::dist {

// An MPI call that failed; the message names the call and keeps MPI's own error text.
class CommunicationError : public Error {
 public:
  using Error::Error;
};

// Initialises MPI for its lifetime when nothing has yet, and finalises it at the end if it did.
// Only the thread that made it calls MPI (MPI_THREAD_FUNNELED): Switchyard's worker threads
// never do.
class Environment {
 public:
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  bool initialised_here_ = false;
};

// A view of a communicator the caller owns (it is never freed here). Collectives on arrays of
// one communicator must be called in the same order on all of its ranks, as for MPI itself.
class Communicator {
 public:
  Communicator();                        // MPI_COMM_WORLD
  explicit Communicator(MPI_Comm comm);  // throws CommunicationError before MPI_Init

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm native() const { return comm_; }

  friend bool operator==(const Communicator& a, const Communicator& b) {
    return a.comm_ == b.comm_;
  }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace switchyard::dist
