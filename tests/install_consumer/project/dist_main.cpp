// Built where the installed package has switchyard_dist: its headers and library, and the MPI
// they bring along, work from another project. Linked, not run (that needs mpiexec).
#include <switchyard/dist.hpp>
#include <switchyard/switchyard.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  namespace dist = switchyard::dist;
  dist::Environment mpi(argc, argv);
  const dist::Communicator comm;
  const dist::DistArray a =
      dist::DistArray::distribute(switchyard::Array::arange(0, 4, 1, switchyard::DType::Float32),
                                  dist::Layout::row_blocks(4, comm.size(), 1), comm);
  std::printf("sum = %g\n", dist::sum(a));
  return 0;
}
