// Values as of the call: a pending result equals what NumPy computes when the operation is
// written, whatever is written afterwards into what it reads (its inputs, their views, storage
// borrowed from outside or lent out through DLPack), on every device.
#include <dlpack/dlpack.h>

#include "conformance/conformance.hpp"
#include "switchyard/dlpack.hpp"

namespace switchyard::conformance {
namespace {

class ValueSemantics : public OnEveryDevice {};

std::vector<double> values_of(const Array& a) {
  return a.astype(DType::Float64).to_vector<double>();
}

TEST_P(ValueSemantics, WriteIntoAnInputKeepsEarlierResults) {
  const Array x = Array::from_vector<std::int32_t>({1, 2, 3});
  const Array y = x * 2;
  x.slice(0, 0, 1).assign(100);
  EXPECT_EQ(values_of(y), (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(values_of(x), (std::vector<double>{100, 2, 3}));
}

TEST_P(ValueSemantics, InPlaceOperatorKeepsEarlierResults) {
  const Array x = Array::from_vector<double>({1, 2, 3});
  const Array y = x * 2, s = sum(x);
  x += 1;
  EXPECT_EQ(values_of(y), (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(s.item<double>(), 6);
  EXPECT_EQ(values_of(x), (std::vector<double>{2, 3, 4}));
}

TEST_P(ValueSemantics, CopiesAndCastsAreSnapshots) {
  const Array x = Array::from_vector<std::int64_t>({1, 2, 3});
  const Array copied = x.copy(), cast = x.astype(DType::Float32);
  x.fill(0);
  EXPECT_EQ(values_of(copied), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values_of(cast), (std::vector<double>{1, 2, 3}));
}

TEST_P(ValueSemantics, WriteThroughAViewKeepsResultsOfOtherViews) {
  const Array x = Array::from_vector<double>({1, 2, 3, 4});
  const Array tail = x.slice(0, 2, std::nullopt);
  const Array y = tail * 10, z = x.slice(0, std::nullopt, std::nullopt, -1) + 0.5;
  x.slice(0, 1, 3).assign(Array::from_vector<double>({-1, -2}));
  EXPECT_EQ(values_of(y), (std::vector<double>{30, 40}));
  EXPECT_EQ(values_of(z), (std::vector<double>{4.5, 3.5, 2.5, 1.5}));
  EXPECT_EQ(values_of(tail), (std::vector<double>{-2, 4}));  // a view sees the write
}

TEST_P(ValueSemantics, WriteIntoAPendingArrayKeepsResultsComputedFromIt) {
  const Array x = Array::from_vector<double>({1, 2, 3});
  const Array y = x * 2;       // pending
  const Array z = y + 1;       // reads pending y
  y.slice(0, 0, 1).assign(0);  // y is computed, then written
  EXPECT_EQ(values_of(z), (std::vector<double>{3, 5, 7}));
  EXPECT_EQ(values_of(y), (std::vector<double>{0, 4, 6}));
  EXPECT_EQ(values_of(x), (std::vector<double>{1, 2, 3}));
}

TEST_P(ValueSemantics, WriteIntoAComputedResultKeepsResultsReadFromIt) {
  const Array x = Array::from_vector<double>({1, 2, 3});
  const Array y = x * 2;
  eval(y);
  const Array z = exp(y) - exp(y);  // reads y's storage
  y.fill(1000);
  EXPECT_EQ(values_of(z), (std::vector<double>{0, 0, 0}));
}

TEST_P(ValueSemantics, ResultReadingTheDestinationOfAWriteKeepsItsValue) {
  // u reads x through a node the in-place write also reads: u must not see the write.
  const Array x = Array::from_vector<double>({1, 2, 3});
  const Array u = x * 2 + 1;
  x += u;
  EXPECT_EQ(values_of(u), (std::vector<double>{3, 5, 7}));
  EXPECT_EQ(values_of(x), (std::vector<double>{4, 7, 10}));
}

TEST_P(ValueSemantics, BorrowedMemoryIsReadWhenTheWorkIsWritten) {
  std::vector<double> owner = {1, 2, 3, 4};
  const Array b = Array::borrow(owner.data(), owner.size() * sizeof(double), {4}, DType::Float64);
  const Array y = b * 2, copied = b.copy(), cast = b.astype(DType::Float32), s = sum(b);
  owner[0] = 100;  // the owner writes its memory: earlier results keep their values
  EXPECT_EQ(values_of(y), (std::vector<double>{2, 4, 6, 8}));
  EXPECT_EQ(values_of(copied), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(values_of(cast), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(s.item<double>(), 10);
  EXPECT_EQ(values_of(b * 1), (std::vector<double>{100, 2, 3, 4}));  // later work sees it
}

TEST_P(ValueSemantics, WritesIntoBorrowedMemoryReachTheOwner) {
  std::vector<double> owner = {1, 2, 3, 4};
  {
    const Array b = Array::borrow(owner.data(), owner.size() * sizeof(double), {4}, DType::Float64);
    b += 1;  // on this test's device; the owner's memory holds the result when it returns
    EXPECT_EQ(owner, (std::vector<double>{2, 3, 4, 5}));
    owner[1] = -7;  // and the owner's later writes are what Switchyard reads next
    b *= 2;
    EXPECT_EQ(owner, (std::vector<double>{4, -14, 8, 10}));
    b.slice(0, 3, 4).assign(0.5);
    EXPECT_EQ(owner, (std::vector<double>{4, -14, 8, 0.5}));
  }
  EXPECT_EQ(owner, (std::vector<double>{4, -14, 8, 0.5}));
}

TEST_P(ValueSemantics, StorageLentThroughDLPackIsReadWhenTheWorkIsWritten) {
  const Array x = Array::from_vector<double>({1, 2, 3});
  const Array before = x + 1;  // pending when the export is made
  DLManagedTensor* exported = to_dlpack(x);
  const Array during = x + 2;  // made while lent
  auto* data = reinterpret_cast<double*>(static_cast<char*>(exported->dl_tensor.data) +
                                         exported->dl_tensor.byte_offset);
  data[0] = 50;  // the consumer writes through its tensor
  EXPECT_EQ(values_of(before), (std::vector<double>{2, 3, 4}));
  EXPECT_EQ(values_of(during), (std::vector<double>{3, 4, 5}));
  EXPECT_EQ(values_of(x + 0), (std::vector<double>{50, 2, 3}));
  exported->deleter(exported);
  const Array after = x * 3;  // given back: lazy again, and still what was written
  EXPECT_EQ(values_of(after), (std::vector<double>{150, 6, 9}));
}

TEST_P(ValueSemantics, InPlaceUpdateStaysOneKernel) {
  const Array a = Array::from_vector<float>({1, 2, 3}), b = Array::from_vector<float>({4, 5, 6}),
              c = Array::from_vector<float>({7, 8, 9});
  const Explanation e = explain([&] { a += b * c; });
  EXPECT_EQ(e.kernels.size(), 1u) << e.to_string();
  EXPECT_EQ(values_of(a), (std::vector<double>{29, 42, 57}));
}

SWITCHYARD_ON_EVERY_DEVICE(ValueSemantics);

}  // namespace
}  // namespace switchyard::conformance
