#include "backends/vulkan/vulkan_driver.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <thread>
#include <utility>

#include "backends/vulkan/vulkan_compiler.hpp"
#include "switchyard/error.hpp"

namespace switchyard::vulkan {
namespace {

constexpr VkDeviceSize kArgumentsBytes = 256 << 10;  // argument blocks between two submits
constexpr int kMaxRecorded = 512;  // commands per submit: bounds what one wait covers
constexpr VkMemoryPropertyFlags kHostFlags =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

// The first memory type with all of `flags`, or -1.
int memory_type(const VkPhysicalDeviceMemoryProperties& p, VkMemoryPropertyFlags flags) {
  for (std::uint32_t i = 0; i < p.memoryTypeCount; ++i)
    if ((p.memoryTypes[i].propertyFlags & flags) == flags) return static_cast<int>(i);
  return -1;
}

Buffer& buffer_of(DeviceMemory m) {
  return *static_cast<Buffer*>(m.handle);
}

// The pipelines of a program's entry points.
class Pipelines final : public Module {
 public:
  explicit Pipelines(Driver& driver) : driver_(driver) {}
  ~Pipelines() override {
    for (auto& [name, p] : entries) driver_.retire(p.pipeline, p.shader);
  }
  struct Entry {
    VkShaderModule shader = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
  };
  std::map<std::string, Entry, std::less<>> entries;

 private:
  Driver& driver_;
};

// build()'s binary: for each entry, its name's length and bytes, then its SPIR-V's word count
// and words, all in 32-bit words.
void put(std::vector<std::byte>& out, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const std::byte*>(data);
  out.insert(out.end(), p, p + bytes);
}

bool take(std::span<const std::byte>& in, void* data, std::size_t bytes) {
  if (in.size() < bytes) return false;
  std::memcpy(data, in.data(), bytes);
  in = in.subspan(bytes);
  return true;
}

}  // namespace

Driver::Driver(const Instance& in, DeviceInfo info, Traits traits)
    : instance_(in), info_(std::move(info)), traits_(std::move(traits)) {
  const float priority = 1;
  const VkDeviceQueueCreateInfo queue{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                      .queueFamilyIndex = traits_.queue_family,
                                      .queueCount = 1,
                                      .pQueuePriorities = &priority};
  VkPhysicalDeviceVulkan12Features v12{.sType =
                                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.storageBuffer8BitAccess = VK_TRUE;
  v12.shaderInt8 = VK_TRUE;
  v12.bufferDeviceAddress = VK_TRUE;
  VkPhysicalDeviceFeatures2 features{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .pNext = &v12};
  features.features.shaderInt64 = VK_TRUE;
  features.features.shaderFloat64 = info_.fp64 ? VK_TRUE : VK_FALSE;
  const VkDeviceCreateInfo create{.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                  .pNext = &features,
                                  .queueCreateInfoCount = 1,
                                  .pQueueCreateInfos = &queue};
  check(in.vkCreateDevice(traits_.physical, &create, nullptr, &device_), "creating a device",
        info_);
  vk_ = device_functions(in, device_);
  vk_.vkGetDeviceQueue(device_, traits_.queue_family, 0, &queue_);

  const VkCommandPoolCreateInfo pool{.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                     .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                     .queueFamilyIndex = traits_.queue_family};
  check(vk_.vkCreateCommandPool(device_, &pool, nullptr, &commands_pool_),
        "creating a command pool", info_);
  const VkCommandBufferAllocateInfo buffer{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = commands_pool_,
                                           .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1};
  check(vk_.vkAllocateCommandBuffers(device_, &buffer, &commands_), "allocating a command buffer",
        info_);
  const VkFenceCreateInfo fence{.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  check(vk_.vkCreateFence(device_, &fence, nullptr, &fence_), "creating a fence", info_);
  // Every entry point takes one push constant: the address of its argument block.
  const VkPushConstantRange range{.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
                                  .size = sizeof(VkDeviceAddress)};
  const VkPipelineLayoutCreateInfo layout{.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                          .pushConstantRangeCount = 1,
                                          .pPushConstantRanges = &range};
  check(vk_.vkCreatePipelineLayout(device_, &layout, nullptr, &layout_),
        "creating a pipeline layout", info_);

  VkPhysicalDeviceMemoryProperties memory;
  in.vkGetPhysicalDeviceMemoryProperties(traits_.physical, &memory);
  const int shared = memory_type(memory, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | kHostFlags);
  const int local = memory_type(memory, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  const int host = memory_type(memory, kHostFlags);
  if (host < 0) throw DeviceError(info_.id() + " has no host-visible coherent memory");
  mapped_arrays_ = shared >= 0;
  device_type_ = static_cast<std::uint32_t>(shared >= 0 ? shared : local >= 0 ? local : host);
  host_type_ = static_cast<std::uint32_t>(host);
  VkResult r = VK_SUCCESS;
  arguments_ = make_buffer(kArgumentsBytes, host_type_, r);
  check(r, "allocating launch arguments", info_);
}

Driver::~Driver() {
  // Never reached for registry devices (they live as long as the process); kept exact for tests
  // that make their own.
  std::lock_guard lock(mutex_);
  vk_.vkDeviceWaitIdle(device_);
  destroy(arguments_);
  destroy(staging_);
  vk_.vkDestroyPipelineLayout(device_, layout_, nullptr);
  vk_.vkDestroyFence(device_, fence_, nullptr);
  vk_.vkDestroyCommandPool(device_, commands_pool_, nullptr);
  vk_.vkDestroyDevice(device_, nullptr);
}

Buffer* Driver::make_buffer(std::size_t bytes, std::uint32_t type, VkResult& result) {
  auto b = std::make_unique<Buffer>();
  b->bytes = bytes;
  const VkBufferCreateInfo create{
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = bytes,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  if ((result = vk_.vkCreateBuffer(device_, &create, nullptr, &b->buffer)) != VK_SUCCESS)
    return nullptr;
  VkMemoryRequirements needs;
  vk_.vkGetBufferMemoryRequirements(device_, b->buffer, &needs);
  const VkMemoryAllocateFlagsInfo flags{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
  const VkMemoryAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                      .pNext = &flags,
                                      .allocationSize = needs.size,
                                      .memoryTypeIndex = type};
  result = vk_.vkAllocateMemory(device_, &allocate, nullptr, &b->memory);
  if (result == VK_SUCCESS) result = vk_.vkBindBufferMemory(device_, b->buffer, b->memory, 0);
  if (result == VK_SUCCESS && (type == host_type_ || mapped_arrays_)) {
    void* p = nullptr;
    result = vk_.vkMapMemory(device_, b->memory, 0, VK_WHOLE_SIZE, 0, &p);
    b->mapped = static_cast<std::byte*>(p);
  }
  if (result != VK_SUCCESS) {
    destroy(b.release());
    return nullptr;
  }
  const VkBufferDeviceAddressInfo address{.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                          .buffer = b->buffer};
  b->address = vk_.vkGetBufferDeviceAddress(device_, &address);
  return b.release();
}

void Driver::destroy(Buffer* b) {
  if (!b) return;
  if (b->buffer) vk_.vkDestroyBuffer(device_, b->buffer, nullptr);
  if (b->memory) vk_.vkFreeMemory(device_, b->memory, nullptr);  // unmaps too
  delete b;
}

std::uint64_t Driver::allocate(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  VkResult r = VK_SUCCESS;
  if (Buffer* b = make_buffer(bytes, device_type_, r)) return reinterpret_cast<std::uintptr_t>(b);
  if (is_out_of_memory(r)) {
    last_refusal_ = r;
    return 0;
  }
  check(r, "allocating " + std::to_string(bytes) + " bytes", info_);
  return 0;
}

void Driver::release(std::uint64_t block) {
  std::lock_guard lock(mutex_);
  finish();  // recorded work may still use it
  destroy(reinterpret_cast<Buffer*>(block));
}

std::string Driver::refusal_name() const {
  return result_name(last_refusal_ == VK_SUCCESS ? VK_ERROR_OUT_OF_DEVICE_MEMORY : last_refusal_);
}

void Driver::record() {
  if (recording_) return;
  const VkCommandBufferBeginInfo begin{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  check(vk_.vkBeginCommandBuffer(commands_, &begin), "recording commands", info_);
  recording_ = true;
}

void Driver::barrier() {
  const VkMemoryBarrier b{
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                       VK_ACCESS_HOST_READ_BIT};
  const VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  vk_.vkCmdPipelineBarrier(commands_, stages, stages | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0,
                           nullptr, 0, nullptr);
}

void Driver::finish() {
  if (!recording_) return;
  recording_ = false;
  ++batch_;
  recorded_ = 0;
  arguments_used_ = 0;
  check(vk_.vkEndCommandBuffer(commands_), "ending a command buffer", info_);
  const VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                            .commandBufferCount = 1,
                            .pCommandBuffers = &commands_};
  check(vk_.vkQueueSubmit(queue_, 1, &submit, fence_), "submitting work", info_);
  const VkResult waited = vk_.vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX);
  vk_.vkResetFences(device_, 1, &fence_);
  vk_.vkResetCommandBuffer(commands_, 0);
  check(waited, "waiting for the device", info_);
}

Buffer& Driver::staging(std::size_t bytes) {
  if (!staging_ || staging_->bytes < bytes) {
    destroy(std::exchange(staging_, nullptr));
    VkResult r = VK_SUCCESS;
    staging_ = make_buffer(std::bit_ceil(std::max<std::size_t>(bytes, 1 << 20)), host_type_, r);
    check(r, "allocating " + std::to_string(bytes) + " bytes of staging memory", info_);
  }
  return *staging_;
}

void Driver::copy_from_host(DeviceMemory dst, std::size_t dst_offset, const void* src,
                            std::size_t bytes) {
  std::lock_guard lock(mutex_);
  finish();  // recorded work may read or write the destination
  Buffer& to = buffer_of(dst);
  if (to.mapped) {
    std::memcpy(to.mapped + dst_offset, src, bytes);
    return;
  }
  Buffer& s = staging(bytes);
  std::memcpy(s.mapped, src, bytes);
  record();
  const VkBufferCopy region{.srcOffset = 0, .dstOffset = dst_offset, .size = bytes};
  vk_.vkCmdCopyBuffer(commands_, s.buffer, to.buffer, 1, &region);
  finish();
}

void Driver::copy_to_host(void* dst, DeviceMemory src, std::size_t src_offset, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  Buffer& from = buffer_of(src);
  if (from.mapped) {
    finish();
    std::memcpy(dst, from.mapped + src_offset, bytes);
    return;
  }
  Buffer& s = staging(bytes);
  record();
  const VkBufferCopy region{.srcOffset = src_offset, .dstOffset = 0, .size = bytes};
  vk_.vkCmdCopyBuffer(commands_, from.buffer, s.buffer, 1, &region);
  barrier();
  finish();
  std::memcpy(dst, s.mapped, bytes);
}

void Driver::copy_within(DeviceMemory dst, std::size_t dst_offset, DeviceMemory src,
                         std::size_t src_offset, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  record();
  const VkBufferCopy region{.srcOffset = src_offset, .dstOffset = dst_offset, .size = bytes};
  vk_.vkCmdCopyBuffer(commands_, buffer_of(src).buffer, buffer_of(dst).buffer, 1, &region);
  barrier();
  finish();  // the interface promises the copy is done on return
}

codegen::Target Driver::target_for(const ir::Kernel&) const {
  codegen::Target t;
  t.dialect = codegen::Dialect::Glsl;
  t.fp64 = info_.fp64;
  t.vector_width = 1;
  t.blocked = false;  // lavapipe too runs a group's items as SIMD lanes
  const std::uint32_t cap = info_.kind == DeviceKind::CPU ? 64 : 256;
  t.local_size = static_cast<int>(std::bit_floor(std::clamp(traits_.max_group_size, 2u, cap)));
  return t;
}

std::int64_t Driver::max_groups(const Module&, std::string_view) const {
  const std::int64_t per =
      info_.kind == DeviceKind::CPU
          ? 4 * std::max(1, static_cast<int>(std::thread::hardware_concurrency()))
          : 4096;
  return std::min<std::int64_t>(per, traits_.max_groups);
}

std::vector<std::byte> Driver::build(const std::string& source,
                                     std::span<const std::string_view> entries) {
  std::vector<std::byte> out;
  for (std::string_view entry : entries) {
    const std::vector<std::uint32_t> words = compile(source, "SY_ENTRY_" + std::string(entry));
    const auto length = static_cast<std::uint32_t>(entry.size());
    const auto count = static_cast<std::uint32_t>(words.size());
    put(out, &length, 4);
    put(out, entry.data(), entry.size());
    out.resize((out.size() + 3) / 4 * 4);
    put(out, &count, 4);
    put(out, words.data(), words.size() * 4);
  }
  return out;
}

std::unique_ptr<Module> Driver::load(std::span<const std::byte> binary,
                                     std::span<const std::string_view> entries) {
  auto module = std::make_unique<Pipelines>(*this);
  std::span<const std::byte> in = binary;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    std::uint32_t length = 0, count = 0;
    std::string name;
    if (!take(in, &length, 4) || length > in.size()) return nullptr;
    name.resize(length);
    take(in, name.data(), length);
    in = in.subspan(std::min<std::size_t>(in.size(), (4 - length % 4) % 4));
    std::vector<std::uint32_t> words;
    if (!take(in, &count, 4) || count * std::size_t{4} > in.size() || count == 0) return nullptr;
    words.resize(count);
    take(in, words.data(), count * std::size_t{4});
    if (name != entries[e] || words[0] != 0x07230203) return nullptr;  // SPIR-V's magic number

    Pipelines::Entry& p = module->entries[name];
    const VkShaderModuleCreateInfo shader{.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                          .codeSize = words.size() * 4,
                                          .pCode = words.data()};
    if (vk_.vkCreateShaderModule(device_, &shader, nullptr, &p.shader) != VK_SUCCESS)
      return nullptr;
    const VkComputePipelineCreateInfo pipeline{
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = p.shader,
                  .pName = "main"},
        .layout = layout_};
    const VkResult r =
        vk_.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipeline, nullptr, &p.pipeline);
    if (is_out_of_memory(r)) check(r, "creating a compute pipeline", info_);
    if (r != VK_SUCCESS) return nullptr;
  }
  return module;
}

void Driver::retire(VkPipeline pipeline, VkShaderModule shader) {
  std::lock_guard lock(mutex_);
  finish();
  if (pipeline) vk_.vkDestroyPipeline(device_, pipeline, nullptr);
  if (shader) vk_.vkDestroyShaderModule(device_, shader, nullptr);
}

void Driver::launch(Module& module, std::string_view entry, std::int64_t groups, int,
                    const LaunchArguments& args) {
  auto* pipelines = dynamic_cast<Pipelines*>(&module);
  const auto found =
      pipelines ? pipelines->entries.find(entry) : decltype(pipelines->entries.end()){};
  if (!pipelines || found == pipelines->entries.end())
    throw ValueError("launch of " + std::string(entry) + " on " + info_.id() +
                     ": the program was not built for it here");
  if (groups <= 0) return;
  if (groups > traits_.max_groups)
    throw DeviceError("VK_ERROR_UNKNOWN: " + std::to_string(groups) + " work-groups of " +
                      std::string(entry) + " on " + info_.id() + ", which dispatches at most " +
                      std::to_string(traits_.max_groups) + " at once");
  // An operand the op does not use (d of a sort without indices) has no allocation: address 0.
  const std::vector<std::byte> block =
      args.block([&](const DeviceMemory& m) { return buffer_of(m).address; });
  const std::size_t bytes = std::max<std::size_t>((block.size() + 15) / 16 * 16, 16);
  std::lock_guard lock(mutex_);
  if (arguments_used_ + bytes > arguments_->bytes || recorded_ >= kMaxRecorded) finish();
  std::memcpy(arguments_->mapped + arguments_used_, block.data(), block.size());
  const VkDeviceAddress address = arguments_->address + arguments_used_;
  arguments_used_ += bytes;
  record();
  vk_.vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, found->second.pipeline);
  vk_.vkCmdPushConstants(commands_, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof address,
                         &address);
  vk_.vkCmdDispatch(commands_, static_cast<std::uint32_t>(groups), 1, 1);
  barrier();
  ++recorded_;
}

void Driver::with_handles(const std::function<void(const Handles&)>& work) {
  std::lock_guard lock(mutex_);
  work(handles());
}

void Driver::record_commands(const std::function<void(VkCommandBuffer, const Handles&)>& commands,
                             std::uint64_t* batch) {
  std::lock_guard lock(mutex_);
  if (recorded_ >= kMaxRecorded || (batch && *batch == batch_)) finish();
  record();
  commands(commands_, handles());
  barrier();
  ++recorded_;
  if (batch) *batch = batch_;
}

Driver::Handles Driver::handles() const {
  return {instance_, vk_, traits_.physical, device_, queue_, commands_pool_, fence_};
}

VkBuffer Driver::buffer(DeviceMemory m) {
  return m ? buffer_of(m).buffer : VK_NULL_HANDLE;
}

void Driver::synchronize() {
  std::lock_guard lock(mutex_);
  finish();
}

}  // namespace switchyard::vulkan
