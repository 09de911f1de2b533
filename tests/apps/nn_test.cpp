// Autograd against central finite differences in float64, and training that must reach a stated
// accuracy on held-out data with SGD and Adam, on every device.
#include "switchyard/apps/nn.hpp"

#include <cmath>
#include <functional>
#include <vector>

#include "conformance/conformance.hpp"

namespace switchyard::apps::nn {
namespace {

using conformance::OnEveryDevice;

class Gradients : public OnEveryDevice {
 protected:
  void SetUp() override {
    OnEveryDevice::SetUp();
    if (!device_has_fp64()) GTEST_SKIP() << "finite differences need float64";
  }
};

Array random(const Shape& shape, std::uint64_t seed) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  return conformance::host_array(conformance::random_values(n, DType::Float64, seed, -1, 1), shape,
                                 DType::Float64);
}

// Checks grad() of every input against central differences of the scalar f(inputs).
void expect_gradients_match(const std::function<Var(std::span<const Var>)>& f,
                            std::vector<Array> inputs, const std::string& what) {
  std::vector<Var> vars;
  for (const Array& a : inputs) vars.emplace_back(a, true);
  f(vars).backward();
  const double step = 1e-6;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::vector<double> base = inputs[i].to_vector<double>();
    const std::vector<double> analytic = vars[i].grad().to_vector<double>();
    ASSERT_EQ(analytic.size(), base.size()) << what << " input " << i;
    for (std::size_t k = 0; k < base.size(); ++k) {
      auto value_with = [&](double delta) {
        std::vector<double> shifted = base;
        shifted[k] += delta;
        std::vector<Var> probe;
        for (std::size_t j = 0; j < inputs.size(); ++j)
          probe.emplace_back(j == i ? Array::from_vector(shifted, inputs[i].shape()) : inputs[j]);
        return f(probe).value().item<double>();
      };
      const double numeric = (value_with(step) - value_with(-step)) / (2 * step);
      EXPECT_NEAR(analytic[k], numeric, 1e-6 * std::max(1.0, std::abs(numeric)))
          << what << " input " << i << " element " << k;
    }
  }
}

TEST_P(Gradients, EachOperationMatchesFiniteDifferences) {
  const Array a = random(Shape{3, 4}, 1), b = random(Shape{3, 4}, 2);
  using Vars = std::span<const Var>;
  expect_gradients_match([](Vars v) { return mean(v[0] + v[1]); }, {a, b}, "add");
  expect_gradients_match([](Vars v) { return mean(v[0] - v[1]); }, {a, b}, "subtract");
  expect_gradients_match([](Vars v) { return mean(v[0] * v[1]); }, {a, b}, "multiply");
  expect_gradients_match([](Vars v) { return mean(relu(v[0]) * v[1]); }, {a, b}, "relu");
  expect_gradients_match([](Vars v) { return mean(sigmoid(v[0]) * v[1]); }, {a, b}, "sigmoid");
  expect_gradients_match([](Vars v) { return mean(tanh(v[0]) * v[1]); }, {a, b}, "tanh");
  expect_gradients_match([](Vars v) { return mean(matmul(v[0], v[1])); },
                         {a, random(Shape{4, 5}, 3)}, "matmul");
  const Array labels = Array::from_vector(std::vector<std::int64_t>{2, 0, 3});
  expect_gradients_match([&](Vars v) { return softmax_cross_entropy(v[0] * v[1], labels); }, {a, b},
                         "softmax_cross_entropy");
  // A value used twice: its gradients add up.
  expect_gradients_match([](Vars v) { return mean(v[0] * v[0] + v[0]); }, {a}, "reuse");
}

TEST_P(Gradients, BroadcastOperandsGetGradientsSummedOverBroadcastAxes) {
  const Array a = random(Shape{3, 4}, 4);
  using Vars = std::span<const Var>;
  auto weighted = [](const Var& v) { return mean(v * v); };
  expect_gradients_match([&](Vars v) { return weighted(v[0] + v[1]); }, {a, random(Shape{4}, 5)},
                         "row vector");
  expect_gradients_match([&](Vars v) { return weighted(v[0] * v[1]); }, {a, random(Shape{3, 1}, 6)},
                         "column");
  expect_gradients_match([&](Vars v) { return weighted(v[0] - v[1]); }, {a, random(Shape{}, 7)},
                         "0-d");
}

TEST_P(Gradients, SmallNetworkMatchesFiniteDifferences) {
  const MLP model({5, 4, 3}, 11, DType::Float64);
  const Array x = random(Shape{6, 5}, 8);
  const Array labels = Array::from_vector(std::vector<std::int64_t>{0, 1, 2, 2, 1, 0});
  std::vector<Array> inputs = model.parameters();
  expect_gradients_match(
      [&](std::span<const Var> v) {
        return softmax_cross_entropy(model.forward(v, Var(x)), labels);
      },
      inputs, "mlp");
}

void expect_training_reaches_accuracy(const std::shared_ptr<const Optimizer>& optimizer) {
  const Dataset data = make_classification(1500, 32, 5, 21);
  const Array x_train = data.x.slice(0, 0, 1000), y_train = data.labels.slice(0, 0, 1000);
  const Array x_test = data.x.slice(0, 1000, std::nullopt);
  const Array y_test = data.labels.slice(0, 1000, std::nullopt);
  Trainer trainer(MLP({32, 64, 5}, 3), optimizer);
  const std::vector<double> losses = trainer.fit(x_train, y_train, 8, 100);
  EXPECT_LT(losses.back(), 0.5 * losses.front());
  EXPECT_GE(accuracy(trainer.model(), x_test, y_test), 0.9);
}

using Training = OnEveryDevice;

TEST_P(Training, SgdWithMomentumLearnsTheClusters) {
  expect_training_reaches_accuracy(std::make_shared<SGD>(0.05, 0.9));
}

TEST_P(Training, PlainSgdLearnsTheClusters) {
  expect_training_reaches_accuracy(std::make_shared<SGD>(0.2));
}

TEST_P(Training, AdamLearnsTheClusters) {
  expect_training_reaches_accuracy(std::make_shared<Adam>(3e-3));
}

// One step against the same step written out on the host in float64.
TEST_P(Gradients, AdamStepMatchesItsFormula) {
  const Array p = random(Shape{4}, 9), g = random(Shape{4}, 10);
  const Adam adam(0.01, 0.8, 0.9, 1e-3);
  const Array params[] = {p}, grads[] = {g};
  std::vector<Array> state = adam.initial_state(params);
  std::vector<Array> out = adam.update(params, grads, state);
  out = adam.update(std::span<const Array>(&out[0], 1), grads,
                    std::span<const Array>(out).subspan(1));
  const std::vector<double> p0 = p.to_vector<double>(), g0 = g.to_vector<double>();
  std::vector<double> expected;
  for (std::size_t i = 0; i < p0.size(); ++i) {
    double m = 0, v = 0, x = p0[i];
    for (int t = 1; t <= 2; ++t) {
      m = 0.8 * m + 0.2 * g0[i];
      v = 0.9 * v + 0.1 * g0[i] * g0[i];
      const double lr_t = 0.01 * std::sqrt(1 - std::pow(0.9, t)) / (1 - std::pow(0.8, t));
      x -= lr_t * m / (std::sqrt(v) + 1e-3);
    }
    expected.push_back(x);
  }
  conformance::expect_within(out[0], expected, std::vector<double>(4, 1e-12), "adam");
}

TEST_P(Training, TheWholeWorkloadReachesItsAccuracy) {
  ClassifierSetup setup;
  setup.samples = 1000;
  setup.features = 64;
  setup.hidden = 32;
  setup.classes = 4;
  setup.epochs = 4;
  setup.batch_size = 100;
  setup.lr = 1e-2;
  const ClassifierRun run = train_classifier(setup);
  ASSERT_EQ(run.epoch_losses.size(), 4u);
  EXPECT_LT(run.epoch_losses.back(), run.epoch_losses.front());
  EXPECT_GE(run.test_accuracy, 0.9);
}

// Each parameter's update (and its optimizer state) is one kernel; Adam adds one 0-d kernel for
// the step count and its bias-corrected rate.
TEST_P(Training, EachParameterUpdateIsOneKernel) {
  const Array params[] = {Array::ones(Shape{8, 3}), Array::ones(Shape{3})};
  const Array grads[] = {Array::full(Shape{8, 3}, 0.5), Array::full(Shape{3}, 0.25)};
  const SGD sgd(0.1, 0.9);
  const Adam adam(0.1);
  const std::vector<Array> sgd_state = sgd.initial_state(params);
  const std::vector<Array> adam_state = adam.initial_state(params);
  eval(std::span<const Array>(sgd_state));
  eval(std::span<const Array>(adam_state));
  const Explanation sgd_kernels = explain([&] {
    const std::vector<Array> out = sgd.update(params, grads, sgd_state);
    eval(std::span<const Array>(out));
  });
  EXPECT_EQ(sgd_kernels.kernels.size(), 2u) << sgd_kernels.to_string();
  const Explanation adam_kernels = explain([&] {
    const std::vector<Array> out = adam.update(params, grads, adam_state);
    eval(std::span<const Array>(out));
  });
  EXPECT_EQ(adam_kernels.kernels.size(), 3u) << adam_kernels.to_string();
}

// No DeviceScope: the scheduler places every kernel of the training.
TEST(NnAuto, AdamLearnsTheClusters) {
  expect_training_reaches_accuracy(std::make_shared<Adam>(3e-3));
}

TEST(NnErrors, BadArgumentsAreTypedErrors) {
  EXPECT_THROW(MLP({5}, 1), ValueError);
  EXPECT_THROW(MLP({5, 0}, 1), ValueError);
  EXPECT_THROW(MLP({5, 3}, 1, DType::Int32), DTypeError);
  EXPECT_THROW(SGD(-1), ValueError);
  EXPECT_THROW(SGD(0.1, 1.5), ValueError);
  EXPECT_THROW(Adam(0.1, 1.0), ValueError);
  EXPECT_THROW(make_classification(0, 3, 2, 1), ValueError);
  Trainer trainer(MLP({4, 3}, 1), std::make_shared<SGD>(0.1));
  EXPECT_THROW(trainer.train_step(Array::zeros(Shape{2, 5}), Array::zeros(Shape{2}, DType::Int64)),
               ShapeError);
  EXPECT_THROW(trainer.train_step(Array::zeros(Shape{2, 4}), Array::zeros(Shape{3}, DType::Int64)),
               ShapeError);
  EXPECT_THROW(softmax_cross_entropy(Var(Array::zeros(Shape{2, 4})), Array::zeros(Shape{2})),
               DTypeError);
  EXPECT_THROW(Var(Array::zeros(Shape{2}), true).backward(), ShapeError);
}

SWITCHYARD_ON_EVERY_DEVICE(Gradients);
SWITCHYARD_ON_EVERY_DEVICE(Training);

}  // namespace
}  // namespace switchyard::apps::nn
