# Every third-party dependency, found once. scripts/install-deps.sh installs them all.
find_package(Threads REQUIRED)
find_package(TBB REQUIRED)
find_package(hwy REQUIRED)
find_package(OpenCL REQUIRED)
find_package(CLBlast REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(dlpack REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
pkg_check_modules(FFTW REQUIRED IMPORTED_TARGET fftw3 fftw3f)
pkg_check_modules(SLEEF REQUIRED IMPORTED_TARGET sleef)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
if(SWITCHYARD_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(SWITCHYARD_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
# CUDA needs only the toolkit's headers at build time (the driver, NVRTC and cuBLAS are loaded at
# run time); found here, once, so the library and the tests see the same answer.
find_package(CUDAToolkit QUIET)
# MPI only for the optional component src/dist/ (SWITCHYARD_DIST); the core library never links it.
set(SWITCHYARD_DIST_BUILT OFF)
if(NOT SWITCHYARD_DIST STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(SWITCHYARD_DIST_BUILT ON)
    # The environment of the tests run under mpiexec (C++ and Python) and of the ranks that
    # `switchyard demo --ranks` starts, as Open MPI's settings in variables, which MPICH
    # ignores: more ranks than cores (CI has 2); idle ranks that yield
    # their core instead of busy-polling it; no binding, since Open MPI binds each of up to 2
    # ranks to one core, which leaves oneTBB no worker thread (and a warning) there and not at 3
    # or 4 ranks; and running as root, as CI containers do.
    set(SWITCHYARD_MPI_TEST_ENVIRONMENT
      OMPI_MCA_rmaps_base_oversubscribe=1
      OMPI_MCA_mpi_yield_when_idle=1
      OMPI_MCA_hwloc_base_binding_policy=none
      OMPI_ALLOW_RUN_AS_ROOT=1
      OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
  elseif(SWITCHYARD_DIST STREQUAL "ON")
    message(FATAL_ERROR "SWITCHYARD_DIST=ON needs MPI (libopenmpi-dev, or libmpich-dev)")
  else()
    message(STATUS "MPI not found: building without switchyard_dist (make deps installs Open MPI)")
  endif()
endif()
