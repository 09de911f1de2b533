#include "switchyard/dist/communicator.hpp"

#include "dist/collectives.hpp"

namespace switchyard::dist {

Environment::Environment(int& argc, char**& argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) return;
  int provided = 0;
  check_mpi(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  initialised_here_ = true;
}

Environment::~Environment() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (initialised_here_ && !finalised) MPI_Finalize();
}

Communicator::Communicator() : Communicator(MPI_COMM_WORLD) {}

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised)
    throw CommunicationError(
        "switchyard::dist needs MPI initialised: call MPI_Init first, or keep a "
        "switchyard::dist::Environment alive in main()");
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

}  // namespace switchyard::dist
