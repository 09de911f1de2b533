// The distributed sort and top-k against the one-process argsort and top_k of the whole array,
// bit for bit, on data that breaks naive splitting: duplicates, one value repeated, NaN, ±inf,
// -0.0 beside 0.0, no elements, and ranks that hold none.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dist_support.hpp"

namespace switchyard::dist {
namespace {

enum class Data { Normal, FewValues, AllEqual, Special };

struct SortCase {
  std::int64_t rows, block_rows;
  DType dtype;
  Data data;
};

void PrintTo(const SortCase& c, std::ostream* out) {
  static const char* const kData[] = {"normal", "few values", "all equal", "special"};
  *out << c.rows << " " << name(c.dtype) << " " << kData[static_cast<int>(c.data)]
       << " in blocks of " << c.block_rows;
}

// The values of a Special array, in turn: NaN, ±inf, -0.0 and 0.0 among repeats of small values.
double special(std::int64_t i) {
  const double inf = std::numeric_limits<double>::infinity();
  const double cycle[] = {std::nan(""), 1.5, -0.0, inf, 0.0, -2.0, -inf, 1.5, 0.0, -0.0, 3.0};
  return cycle[i % std::size(cycle)];
}

// The whole array, the same on every rank.
Array global_data(const SortCase& c) {
  Array x;
  switch (c.data) {
    case Data::Normal:
      x = testing::global_array(c.rows, 0, DType::Float64) * 1000.0;
      break;
    case Data::FewValues:
      x = floor(testing::global_array(c.rows, 0, DType::Float64) * 2.0);
      break;
    case Data::AllEqual:
      x = Array::full({c.rows}, 7, DType::Float64);
      break;
    case Data::Special: {
      std::vector<double> v(static_cast<std::size_t>(c.rows));
      for (std::int64_t i = 0; i < c.rows; ++i) v[i] = special(i * 7);
      x = Array::from_vector(v);
      break;
    }
  }
  x = x.astype(c.dtype);
  eval(x);
  return x;
}

// The elements' bytes: equal when the arrays hold the same bits (NaN included).
std::vector<std::byte> bits(const Array& a) {
  std::vector<std::byte> out(a.nbytes());
  a.to_host(out.data(), out.size());
  return out;
}

class DistSort : public ::testing::TestWithParam<SortCase> {};

TEST_P(DistSort, EqualsTheStableSortOfTheWholeArray) {
  const SortCase c = GetParam();
  const Communicator comm;
  const Array global = global_data(c);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const DistArray sorted = sort(a);
  ASSERT_TRUE(sorted.layout().is_ragged());
  EXPECT_EQ(sorted.layout().rows(), c.rows);
  EXPECT_EQ(sorted.layout().block_rows(), c.block_rows);
  EXPECT_EQ(sorted.dtype(), c.dtype);
  EXPECT_EQ(bits(gather(sorted)), bits(take(global, argsort(global))));
}

// Splitting by (value, position) spreads a run of equal values over the ranks: with regular
// samples, no rank receives more than twice its share.
TEST_P(DistSort, SpreadsTheElementsOverTheRanks) {
  const SortCase c = GetParam();
  const Communicator comm;
  const DistArray a =
      DistArray::distribute(global_data(c), Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  const DistArray sorted = sort(a);
  const std::int64_t share = (c.rows + comm.size() - 1) / comm.size();
  for (int r = 0; r < comm.size(); ++r)
    EXPECT_LE(sorted.layout().rows_of(r), 2 * share + comm.size()) << "rank " << r;
}

TEST_P(DistSort, TopKEqualsTheTopKOfTheWholeArray) {
  const SortCase c = GetParam();
  const Communicator comm;
  const Array global = global_data(c);
  const DistArray a =
      DistArray::distribute(global, Layout::row_blocks(c.rows, comm.size(), c.block_rows));
  for (const std::int64_t k : {std::int64_t{0}, std::int64_t{1}, std::int64_t{9}, c.rows}) {
    if (k > c.rows) continue;
    const TopK got = top_k(a, k), want = switchyard::top_k(global, k);
    EXPECT_EQ(bits(got.values), bits(want.values)) << "k = " << k;
    EXPECT_EQ(got.indices.to_vector<std::int64_t>(), want.indices.to_vector<std::int64_t>())
        << "k = " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Data, DistSort,
    ::testing::Values(SortCase{1000, 7, DType::Float32, Data::Normal},
                      SortCase{1000, 7, DType::Float64, Data::Normal},
                      SortCase{1001, 16, DType::Int64, Data::Normal},
                      SortCase{999, 8, DType::Float64, Data::FewValues},
                      SortCase{500, 8, DType::Int64, Data::FewValues},
                      SortCase{640, 8, DType::Float32, Data::AllEqual},
                      SortCase{777, 5, DType::Float32, Data::Special},
                      SortCase{777, 5, DType::Float64, Data::Special},
                      SortCase{3, 1, DType::Float64, Data::Special},  // at 4 ranks, one holds none
                      SortCase{10, 4, DType::Float64, Data::Normal},  // 3 blocks
                      SortCase{0, 4, DType::Float32, Data::Normal}));

// A ragged array whose ranks keep different counts, some none: what compress leaves.
TEST(DistSortRagged, SortsWhatCompressKept) {
  const Communicator comm;
  const std::int64_t rows = 400;
  const Array global = global_data({rows, 4, DType::Float64, Data::Special});
  const Array keep = Array::arange(std::int64_t{0}, rows) < rows / 3;  // only the first rank's rows
  const Layout layout = Layout::row_blocks(rows, comm.size(), 4);
  const DistArray kept =
      compress(DistArray::distribute(global, layout), DistArray::distribute(keep, layout));
  const Array want = global.slice(0, 0, rows / 3);
  EXPECT_EQ(bits(gather(sort(kept))), bits(take(want, argsort(want))));
  const TopK got = top_k(kept, 20), best = switchyard::top_k(want, 20);
  EXPECT_EQ(bits(got.values), bits(best.values));
  EXPECT_EQ(got.indices.to_vector<std::int64_t>(), best.indices.to_vector<std::int64_t>());
}

TEST(DistSortReplicated, SortsOnEveryRankAndStaysReplicated) {
  const Communicator comm;
  const Array global = global_data({300, 4, DType::Float32, Data::Special});
  const DistArray a(global, Layout::replicated(300, comm.size(), 4));
  const DistArray sorted = sort(a);
  EXPECT_TRUE(sorted.layout().is_replicated());
  EXPECT_EQ(bits(sorted.local()), bits(take(global, argsort(global))));
  EXPECT_EQ(bits(top_k(a, 5).values), bits(switchyard::top_k(global, 5).values));
}

// Each rank raises the error before any communication, so no rank waits on another; a sort after
// them finds the ranks in step.
TEST(DistSortErrors, AreTypedOnEveryRank) {
  const Communicator comm;
  const Layout layout = Layout::row_blocks(12, comm.size(), 4);
  const DistArray matrix = DistArray::distribute(Array::ones({12, 2}, DType::Float64), layout);
  EXPECT_THROW(sort(matrix), ShapeError);
  EXPECT_THROW(top_k(matrix, 1), ShapeError);
  const DistArray flags = DistArray::distribute(Array::ones({12}, DType::Bool), layout);
  EXPECT_THROW(sort(flags), DTypeError);
  EXPECT_THROW(top_k(flags, 1), DTypeError);
  const DistArray int32s = DistArray::distribute(Array::ones({12}, DType::Int32), layout);
  EXPECT_THROW(sort(int32s), DTypeError);
  const DistArray x = DistArray::distribute(Array::arange(std::int64_t{12}), layout);
  EXPECT_THROW(top_k(x, -1), ValueError);
  EXPECT_THROW(top_k(x, 13), ValueError);
  try {
    top_k(x, -1);
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("given -1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(gather(sort(x)).to_vector<std::int64_t>(),
            Array::arange(std::int64_t{12}).to_vector<std::int64_t>());
}

}  // namespace
}  // namespace switchyard::dist
