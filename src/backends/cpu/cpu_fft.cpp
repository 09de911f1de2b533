#include "backends/cpu/cpu_fft.hpp"

#include <fftw3.h>

#include <climits>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "switchyard/error.hpp"

namespace switchyard::cpu {
namespace {

// FFTW's float and double interfaces differ only by prefix: one table of each.
template <class T>
struct Fftw;
#define SWITCHYARD_FFTW_API(T, P)                                      \
  template <>                                                          \
  struct Fftw<T> {                                                     \
    using Complex = P##_complex;                                       \
    using Plan = P##_plan;                                             \
    static constexpr auto plan_c2c = P##_plan_many_dft;                \
    static constexpr auto plan_r2c = P##_plan_many_dft_r2c;            \
    static constexpr auto plan_c2r = P##_plan_many_dft_c2r;            \
    static constexpr auto execute_c2c = P##_execute_dft;               \
    static constexpr auto execute_r2c = P##_execute_dft_r2c;           \
    static constexpr auto execute_c2r = P##_execute_dft_c2r;           \
    static constexpr auto destroy = P##_destroy_plan;                  \
    static constexpr auto alignment_of = P##_alignment_of;             \
    static constexpr auto allocate = P##_malloc;                       \
    static constexpr auto release = P##_free;                          \
    static constexpr auto init_threads = P##_init_threads;             \
    static constexpr auto plan_with_nthreads = P##_plan_with_nthreads; \
  };
SWITCHYARD_FFTW_API(double, fftw)
SWITCHYARD_FFTW_API(float, fftwf)
#undef SWITCHYARD_FFTW_API

// FFTW's planner keeps global state: every planner call, of either precision, is serialised.
std::mutex& planner_mutex() {
  static std::mutex mutex;
  return mutex;
}

// Small transforms stay on one thread: FFTW's manual advises threads for large transforms only,
// where the work outweighs waking them.
constexpr std::int64_t kThreadedPoints = 1 << 15;

template <class T>
int planner_threads(std::int64_t points) {
  static const bool ready = [] { return Fftw<T>::init_threads() != 0; }();
  if (!ready || points < kThreadedPoints) return 1;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int fftw_size(std::int64_t value, const char* what) {
  if (value < 0 || value > INT_MAX)
    throw ValueError(std::string("cpu fft: ") + what + " = " + std::to_string(value) +
                     ", expected 0.." + std::to_string(INT_MAX) + " (FFTW takes int sizes)");
  return static_cast<int>(value);
}

void* address(const Operand& operand) {
  return static_cast<std::byte*>(operand.memory.handle) + operand.offset * size_of(operand.dtype);
}

}  // namespace

FftRoutine::FftRoutine(switchyard::Device& device, const LibraryOp& op) : Routine(device, op) {
  if (!is_floating(op.dtype))
    throw DTypeError("cpu backend: fft of " + std::string(name(op.dtype)) +
                     " parts is not supported: expected float32 or float64");
}

FftRoutine::~FftRoutine() {
  const std::lock_guard lock(planner_mutex());
  for (const auto& [key, plan] : plans_) {
    if (op().dtype == DType::Float32)
      Fftw<float>::destroy(static_cast<Fftw<float>::Plan>(plan));
    else
      Fftw<double>::destroy(static_cast<Fftw<double>::Plan>(plan));
  }
}

template <class T>
void* FftRoutine::plan_for(const PlanKey& key, void* in, void* out) const {
  const std::lock_guard lock(plans_mutex_);
  if (const auto found = plans_.find(key); found != plans_.end()) return found->second;
  using F = Fftw<T>;
  const auto [rows, m, n, aligned] = key;
  const int dims[2] = {fftw_size(m, "m"), fftw_size(n, "n")};
  const int* shape = op().rank == 2 ? dims : dims + 1;
  const int howmany = fftw_size(rows, "rows");
  const int real_points = fftw_size(m * n, "m·n"), half_points = fftw_size(m * (n / 2 + 1), "m·n");
  // ESTIMATE plans never touch the arrays; c2r may overwrite its input, which is scratch.
  const unsigned flags = FFTW_ESTIMATE | (aligned ? 0u : FFTW_UNALIGNED);
  const std::lock_guard planner(planner_mutex());
  F::plan_with_nthreads(planner_threads<T>(m * n * rows));
  typename F::Plan plan = nullptr;
  auto* c_in = static_cast<typename F::Complex*>(in);
  auto* c_out = static_cast<typename F::Complex*>(out);
  switch (op().fft) {
    case LibraryOp::FftKind::ComplexToComplex:
      plan = F::plan_c2c(op().rank, shape, howmany, c_in, nullptr, 1, real_points, c_out, nullptr,
                         1, real_points, op().inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);
      break;
    case LibraryOp::FftKind::RealToComplex:
      plan = F::plan_r2c(op().rank, shape, howmany, static_cast<T*>(in), nullptr, 1, real_points,
                         c_out, nullptr, 1, half_points, flags);
      break;
    case LibraryOp::FftKind::ComplexToReal:
      plan = F::plan_c2r(op().rank, shape, howmany, c_in, nullptr, 1, half_points,
                         static_cast<T*>(out), nullptr, 1, real_points, flags);
      break;
  }
  if (!plan)
    throw DeviceError("cpu fft: FFTW made no plan for " + std::to_string(rows) + " transforms of " +
                      std::to_string(m) + "×" + std::to_string(n));
  plans_.emplace(key, plan);
  return plan;
}

template <class T>
void FftRoutine::transform(const LibraryArgs& args) const {
  using F = Fftw<T>;
  if (args.rows == 0) return;
  void* in = address(args.a);
  void* out = address(args.c);
  // c2r overwrites its input (and multi-dimensional c2r cannot preserve it): run it on a copy.
  using Scratch = std::unique_ptr<void, decltype(F::release)>;
  Scratch scratch(nullptr, F::release);
  if (op().fft == LibraryOp::FftKind::ComplexToReal) {
    const std::size_t bytes = static_cast<std::size_t>(args.rows * args.m * (args.n / 2 + 1)) *
                              sizeof(typename F::Complex);
    scratch.reset(F::allocate(bytes));
    if (!scratch) throw OutOfMemory("cpu fft: no " + std::to_string(bytes) + " bytes of scratch");
    std::memcpy(scratch.get(), in, bytes);
    in = scratch.get();
  }
  const bool aligned =
      F::alignment_of(static_cast<T*>(in)) == 0 && F::alignment_of(static_cast<T*>(out)) == 0;
  const auto plan =
      static_cast<typename F::Plan>(plan_for<T>({args.rows, args.m, args.n, aligned}, in, out));
  auto* c_in = static_cast<typename F::Complex*>(in);
  auto* c_out = static_cast<typename F::Complex*>(out);
  switch (op().fft) {
    case LibraryOp::FftKind::ComplexToComplex:
      return F::execute_c2c(plan, c_in, c_out);
    case LibraryOp::FftKind::RealToComplex:
      return F::execute_r2c(plan, static_cast<T*>(in), c_out);
    case LibraryOp::FftKind::ComplexToReal:
      return F::execute_c2r(plan, c_in, static_cast<T*>(out));
  }
}

void FftRoutine::launch(const LibraryArgs& args) {
  op().dtype == DType::Float32 ? transform<float>(args) : transform<double>(args);
}

}  // namespace switchyard::cpu
