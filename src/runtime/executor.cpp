#include "runtime/executor.hpp"

#include <cstring>
#include <mutex>
#include <unordered_map>

#include "backends/registry.hpp"
#include "runtime/buffer.hpp"

namespace switchyard::runtime {
namespace {

struct ExecutableKey {
  std::uint64_t hash;
  const Device* device;
  bool operator==(const ExecutableKey&) const = default;
};

struct ExecutableKeyHash {
  std::size_t operator()(const ExecutableKey& k) const {
    return k.hash ^ (reinterpret_cast<std::uintptr_t>(k.device) * 0x9e3779b97f4a7c15ull);
  }
};

struct ExecutableCache {
  std::mutex mutex;  // guards entries
  std::unordered_map<ExecutableKey, std::shared_ptr<Executable>, ExecutableKeyHash> entries;
};

thread_local Device* pinned = nullptr;

ExecutableCache& executable_cache() {
  static ExecutableCache cache;
  return cache;
}

ir::Layout classify(const Shape& shape, const Strides& strides) {
  bool all_zero = true, contiguous = true;
  std::int64_t expected = 1;
  for (int i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    all_zero = all_zero && strides[i] == 0;
    contiguous = contiguous && strides[i] == expected;
    expected *= shape[i];
  }
  if (all_zero) return ir::Layout::Broadcast;
  return contiguous ? ir::Layout::Contiguous : ir::Layout::Strided;
}

Operand operand_on(Device& device, const Array& a) {
  return {a.buffer()->read_on(device), a.dtype(), a.offset(), a.strides()};
}

// Writes the reduction's identity (sum 0, prod 1) into an output whose reduced span is empty.
void fill_identity(Array& out, ir::ReduceOp op) {
  std::byte* data = out.buffer()->host_data();
  visit_dtype(out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T identity = op == ir::ReduceOp::Prod ? T(1) : T(0);
    for (std::int64_t i = 0; i < out.size(); ++i)
      std::memcpy(data + i * sizeof(T), &identity, sizeof(T));
  });
  out.buffer()->mark_host_written();
}

}  // namespace

LaunchInput launch_input(const Array& a, const Shape& shape) {
  if (!a) throw ValueError("operation on a null Array: expected an array made by a factory");
  Array view = a.shape() == shape ? a : a.broadcast_to(shape);
  const ir::Layout layout = classify(view.shape(), view.strides());
  return {std::move(view), layout};
}

Device* pinned_device() { return pinned; }
void pin_device(Device* device) { pinned = device; }

Device& place(std::span<const LaunchInput> inputs) {
  if (pinned) return *pinned;
  const Registry& registry = Registry::instance();
  const auto devices = registry.devices();
  if (registry.forced()) return *devices.front();
  // Work follows data that lives only on a device; host data runs on the host.
  for (const auto& in : inputs) {
    if (in.array.buffer()->valid_on_host()) continue;
    for (Device* d : devices)
      if (in.array.buffer()->valid_on(*d)) return *d;
  }
  for (Device* d : devices)
    if (d->info().host_addressable) return *d;
  return *devices.front();
}

std::shared_ptr<Executable> executable(Device& device, const ir::Kernel& kernel) {
  const ExecutableKey key{kernel.hash(), &device};
  ExecutableCache& cache = executable_cache();
  {
    std::lock_guard lock(cache.mutex);
    auto it = cache.entries.find(key);
    if (it != cache.entries.end()) return it->second;
  }
  // Prepared outside the lock: compiles can take long and other kernels must not wait.
  auto exe = device.prepare(kernel);
  std::lock_guard lock(cache.mutex);
  return cache.entries.emplace(key, std::move(exe)).first->second;
}

Array run(const ir::Kernel& kernel, const Shape& shape, const Shape& out_shape,
          std::span<const LaunchInput> inputs, std::span<const ScalarValue> scalars) {
  Device& device = place(inputs);
  const DType out_dtype = kernel.has_reduction
                              ? ir::reduce_result(kernel.reduction.op, kernel.outputs[0].dtype)
                              : kernel.outputs[0].dtype;
  const std::int64_t out_count = element_count(out_shape);
  const std::size_t out_bytes = static_cast<std::size_t>(out_count) * size_of(out_dtype);

  if (element_count(shape) == 0) {
    Array out(Buffer::allocate_host(out_bytes), out_dtype, out_shape,
              contiguous_strides(out_shape), 0);
    if (kernel.has_reduction) fill_identity(out, kernel.reduction.op);
    return out;
  }

  Array out(Buffer::allocate_on(device, out_bytes), out_dtype, out_shape,
            contiguous_strides(out_shape), 0);
  Operand operands[16];
  if (inputs.size() > std::size(operands))
    throw ValueError("a kernel reads " + std::to_string(inputs.size()) +
                     " inputs: expected at most 16");
  for (std::size_t i = 0; i < inputs.size(); ++i) operands[i] = operand_on(device, inputs[i].array);
  const Operand result{out.buffer()->write_on(device), out_dtype, 0, out.strides()};

  auto exe = executable(device, kernel);
  device.launch(*exe, LaunchArgs{shape, std::span(operands, inputs.size()), scalars,
                                 std::span(&result, 1)});
  out.buffer()->mark_written(device);
  return out;
}

Array run_library(Device& device, const LibraryOp& op, LibraryArgs args, const Array& a,
                  const Array& b, const Shape& out_shape) {
  const std::size_t out_bytes = static_cast<std::size_t>(element_count(out_shape)) * size_of(op.dtype);
  Array out(Buffer::allocate_on(device, out_bytes), op.dtype, out_shape,
            contiguous_strides(out_shape), 0);
  args.a = operand_on(device, a);
  args.b = operand_on(device, b);
  args.c = {out.buffer()->write_on(device), op.dtype, 0, out.strides()};
  auto exe = device.prepare(op);
  device.launch(*exe, args);
  out.buffer()->mark_written(device);
  return out;
}

Array copy_contiguous(const Array& a, DType dtype) {
  const LaunchInput in = launch_input(a, a.shape());
  ir::KernelBuilder b;
  const auto v = b.load(a.dtype(), in.layout);
  b.output(b.cast(v, dtype));
  return run(b.build(), a.shape(), a.shape(), std::span(&in, 1));
}

}  // namespace switchyard::runtime
