#include "switchyard/dist/reductions.hpp"

#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "dist/block_partials.hpp"
#include "dist/collectives.hpp"
#include "dist/fixed_order_sum.hpp"
#include "dist/rows.hpp"
#include "switchyard/ops.hpp"

namespace switchyard::dist {
namespace {

void require_float(std::string_view function, const DistArray& a) {
  if (!is_floating(a.dtype()))
    throw DTypeError(std::string(function) + ": takes float32 or float64 arrays, given " +
                     std::string(name(a.dtype())) + "; convert the local rows with astype");
}

double summed(std::string_view function, const DistArray& a, BlockFold fold, Summation mode) {
  require_float(function, a);
  if (mode == Summation::Fast) {
    const double mine = local_fold(a, fold);
    return a.layout().is_replicated() ? mine : allreduce_sum(a.communicator(), mine);
  }
  a.layout().require_blocks(function);
  // Every rank adds all block partials in block order, the order the blocks' elements have.
  std::vector<double> all = every_block_partial(a, local_block_partials(a, fold), 1);
  return fixed_order_sum(all);
}

enum class Extreme { Min, Max };

// One rank's extreme: its value and global flat index, or nothing when the rank holds no element.
struct Candidate {
  double value = 0;
  std::int64_t index = 0;
  bool present = false;
};

Candidate local_candidate(const DistArray& a, Extreme extreme) {
  const Array& x = a.local();
  if (x.size() == 0) return {};
  const Array value = extreme == Extreme::Max ? switchyard::max(x) : switchyard::min(x);
  const Array index = extreme == Extreme::Max ? switchyard::argmax(x) : switchyard::argmin(x);
  eval(value, index);
  const std::int64_t first_row = a.layout().first_row(a.communicator().rank());
  return {value.item<double>(), first_row * row_elements(x.shape()) + index.item<std::int64_t>(),
          true};
}

// Ranks hold rows in order, so keeping the earlier candidate on a tie keeps the first
// occurrence; a NaN beats every number, the first NaN every later one.
bool replaces(const Candidate& next, const Candidate& best, Extreme extreme) {
  if (!next.present) return false;
  if (!best.present) return true;
  if (std::isnan(best.value)) return false;
  if (std::isnan(next.value)) return true;
  return extreme == Extreme::Max ? next.value > best.value : next.value < best.value;
}

Candidate global_extreme(std::string_view function, const DistArray& a, Extreme extreme) {
  require_float(function, a);
  Candidate best = local_candidate(a, extreme);
  if (!a.layout().is_replicated()) {
    const std::vector<std::int64_t> ones(a.communicator().size(), 1);
    const std::vector<Candidate> all =
        allgatherv(a.communicator(), std::span<const Candidate>(&best, 1), std::span(ones));
    best = {};
    for (const Candidate& c : all)
      if (replaces(c, best, extreme)) best = c;
  }
  if (!best.present)
    throw ValueError(std::string(function) + ": the array is empty, and " + std::string(function) +
                     " of no elements has no value");
  return best;
}

}  // namespace

double sum(const DistArray& a, Summation mode) {
  return summed("dist::sum", a, BlockFold::Sum, mode);
}

double mean(const DistArray& a, Summation mode) {
  const double total = summed("dist::mean", a, BlockFold::Sum, mode);
  const std::int64_t n = a.layout().rows() * row_elements(a.local().shape());
  return n == 0 ? std::numeric_limits<double>::quiet_NaN() : total / static_cast<double>(n);
}

double norm(const DistArray& a, Summation mode) {
  return std::sqrt(summed("dist::norm", a, BlockFold::SumOfSquares, mode));
}

double min(const DistArray& a) {
  return global_extreme("dist::min", a, Extreme::Min).value;
}
double max(const DistArray& a) {
  return global_extreme("dist::max", a, Extreme::Max).value;
}
std::int64_t argmin(const DistArray& a) {
  return global_extreme("dist::argmin", a, Extreme::Min).index;
}
std::int64_t argmax(const DistArray& a) {
  return global_extreme("dist::argmax", a, Extreme::Max).index;
}

}  // namespace switchyard::dist
