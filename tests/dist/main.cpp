// Runs the distributed tests on every rank of `mpiexec -n N`: each rank checks what it holds and
// the job fails when any rank does. Ranks other than 0 print only their failures.
#include <gtest/gtest.h>

#include "switchyard/dist/communicator.hpp"

int main(int argc, char** argv) {
  switchyard::dist::Environment mpi(argc, argv);
  // Before InitGoogleTest, which picks the printer (a command-line flag still overrides it).
  if (switchyard::dist::Communicator().rank() != 0) GTEST_FLAG_SET(brief, true);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
