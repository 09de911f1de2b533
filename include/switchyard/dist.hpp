// switchyard::dist: arrays spread over the ranks of an MPI job (the optional component
// switchyard_dist, built where MPI is found). Not part of switchyard.hpp: only programs that use
// MPI include it.
#pragma once

#include "switchyard/dist/checkpoint.hpp"
#include "switchyard/dist/communicator.hpp"
#include "switchyard/dist/compress.hpp"
#include "switchyard/dist/dist_array.hpp"
#include "switchyard/dist/layout.hpp"
#include "switchyard/dist/linalg.hpp"
#include "switchyard/dist/redistribute.hpp"
#include "switchyard/dist/reductions.hpp"
#include "switchyard/dist/scans.hpp"
#include "switchyard/dist/sort.hpp"
