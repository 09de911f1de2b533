// Launch graphs on CUDA: the device's stream is captured (cuStreamBeginCapture) while the
// launches are made, and the captured graph is instantiated once and replayed with one
// cuGraphLaunch. Thread-local capture mode: a launch that would allocate, copy or wait fails the
// capture instead of running unrecorded (the runtime then replays launch by launch).
#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "switchyard/error.hpp"

namespace switchyard::cuda {
namespace {

class Graph final : public LaunchGraph {
 public:
  Graph(CUgraph graph, CUgraphExec exec, std::shared_ptr<const PrimaryContext> context)
      : graph_(graph), exec_(exec), context_(std::move(context)) {}
  // Errors are ignored: at process exit the driver may already be shutting down.
  ~Graph() override {
    const QuietContextScope scope(*context_);
    if (!scope) return;
    driver().cuGraphExecDestroy(exec_);
    driver().cuGraphDestroy(graph_);
  }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  CUgraphExec exec() const { return exec_; }
  const PrimaryContext& context() const { return *context_; }

 private:
  CUgraph graph_;
  CUgraphExec exec_;
  std::shared_ptr<const PrimaryContext> context_;
};

}  // namespace

void Driver::begin_graph() {
  const ContextScope scope(*context_);
  check(driver().cuStreamBeginCapture(stream_, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
        "cuStreamBeginCapture", where());
}

std::unique_ptr<LaunchGraph> Driver::end_graph() {
  const ContextScope scope(*context_);
  CUgraph graph = nullptr;
  // Ends the capture even when a launch inside it failed (the result then says so).
  check(driver().cuStreamEndCapture(stream_, &graph), "cuStreamEndCapture", where());
  if (!graph)
    throw DeviceError("cuStreamEndCapture on " + where() +
                      " returned no graph: a launch broke the rules of stream capture (it "
                      "allocated, copied or waited); expected launches only");
  CUgraphExec exec = nullptr;
  const CUresult instantiated = driver().cuGraphInstantiate(&exec, graph, 0);
  if (instantiated != CUDA_SUCCESS) {
    driver().cuGraphDestroy(graph);
    check(instantiated, "cuGraphInstantiate", where());
  }
  return std::make_unique<Graph>(graph, exec, context_);
}

void Driver::launch_graph(LaunchGraph& graph) {
  const auto* g = dynamic_cast<const Graph*>(&graph);
  if (!g || &g->context() != context_.get())
    throw ValueError("launch on " + where() +
                     " of a graph recorded elsewhere: expected one this device's end_graph made");
  const ContextScope scope(*context_);
  check(driver().cuGraphLaunch(g->exec(), stream_), "cuGraphLaunch", where());
}

}  // namespace switchyard::cuda
