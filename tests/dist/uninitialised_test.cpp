// A program that uses switchyard::dist without initialising MPI gets a typed error that says
// what to do, not a crash inside MPI. Runs without mpiexec, and never initialises MPI.
#include <gtest/gtest.h>

#include <string>

#include "switchyard/dist/communicator.hpp"

namespace switchyard::dist {
namespace {

TEST(DistSetup, CommunicatorBeforeMPIInitIsACommunicationError) {
  try {
    const Communicator comm;
    FAIL() << "expected CommunicationError";
  } catch (const CommunicationError& e) {
    EXPECT_NE(std::string(e.what()).find("Environment"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace switchyard::dist
