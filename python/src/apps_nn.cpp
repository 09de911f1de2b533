// switchyard.apps.nn's C++ half (python/switchyard/apps/nn.py wraps it).
#include <nanobind/stl/shared_ptr.h>

#include "bindings.hpp"
#include "gil.hpp"
#include "switchyard/apps/nn.hpp"

namespace switchyard::python {

void bind_nn(nb::module_& apps) {
  namespace nn = switchyard::apps::nn;
  nb::module_ m = apps.def_submodule("nn", "A multilayer perceptron trained with autograd.");
  nb::class_<nn::Var>(m, "Var")
      .def(nb::init<Array, bool>(), nb::arg("value"), nb::arg("requires_grad"))
      .def_prop_ro("value", &nn::Var::value)
      .def_prop_ro("grad",
                   [](const nn::Var& v) -> std::optional<Array> {
                     if (!v.grad()) return std::nullopt;
                     return v.grad();
                   })
      .def_prop_ro("requires_grad", &nn::Var::requires_grad)
      .def("backward", &nn::Var::backward, nb::call_guard<GilRelease>());
  m.def("add", &nn::add);
  m.def("subtract", &nn::subtract);
  m.def("multiply", &nn::multiply);
  m.def("matmul", nb::overload_cast<const nn::Var&, const nn::Var&>(&nn::matmul));
  m.def("relu", &nn::relu);
  m.def("sigmoid", &nn::sigmoid);
  m.def("tanh", nb::overload_cast<const nn::Var&>(&nn::tanh));
  m.def("mean", nb::overload_cast<const nn::Var&>(&nn::mean));
  m.def("softmax_cross_entropy", &nn::softmax_cross_entropy, nb::arg("logits"), nb::arg("labels"));
  nb::class_<nn::MLP>(m, "MLP")
      .def(nb::init<std::vector<std::int64_t>, std::uint64_t, DType>(), nb::arg("sizes"),
           nb::arg("seed"), nb::arg("dtype"))
      .def_prop_ro("sizes", &nn::MLP::sizes)
      .def_prop_ro("dtype", &nn::MLP::dtype)
      .def("__copy__", [](const nn::MLP& model) { return model; })
      .def_prop_ro("parameters", &nn::MLP::parameters)
      .def("set_parameters", &nn::MLP::set_parameters, nb::arg("parameters"))
      .def(
          "forward",
          [](const nn::MLP& model, const std::vector<nn::Var>& parameters, const nn::Var& x) {
            return model.forward(parameters, x);
          },
          nb::arg("parameters"), nb::arg("x"))
      .def("logits", &nn::MLP::logits, nb::arg("x"), nb::call_guard<GilRelease>());
  m.def(
      "loss_and_gradients",
      [](const nn::MLP& model, const std::vector<Array>& parameters, const Array& x,
         const Array& labels, double weight) {
        nn::LossAndGradients out = nn::loss_and_gradients(model, parameters, x, labels, weight);
        return std::make_pair(out.loss, out.gradients);
      },
      nb::arg("model"), nb::arg("parameters"), nb::arg("x"), nb::arg("labels"), nb::arg("weight"),
      nb::call_guard<GilRelease>());
  nb::class_<nn::Optimizer>(m, "Optimizer")
      .def(
          "initial_state",
          [](const nn::Optimizer& o, const std::vector<Array>& parameters) {
            return o.initial_state(parameters);
          },
          nb::arg("parameters"))
      .def(
          "update",
          [](const nn::Optimizer& o, const std::vector<Array>& parameters,
             const std::vector<Array>& gradients,
             const std::vector<Array>& state) { return o.update(parameters, gradients, state); },
          nb::arg("parameters"), nb::arg("gradients"), nb::arg("state"),
          nb::call_guard<GilRelease>());
  nb::class_<nn::SGD, nn::Optimizer>(m, "SGD").def(nb::init<double, double>(), nb::arg("lr"),
                                                   nb::arg("momentum"));
  nb::class_<nn::Adam, nn::Optimizer>(m, "Adam").def(nb::init<double, double, double, double>(),
                                                     nb::arg("lr"), nb::arg("beta1"),
                                                     nb::arg("beta2"), nb::arg("eps"));
  nb::class_<nn::Trainer>(m, "Trainer",
                          "Trains a copy of `model` with `optimizer`; the trained model is .model.")
      .def(
          "__init__",
          [](nn::Trainer* self, const nn::MLP& model, std::shared_ptr<nn::Optimizer> optimizer) {
            new (self) nn::Trainer(model, std::move(optimizer));
          },
          nb::arg("model"), nb::arg("optimizer"))
      .def("train_step", &nn::Trainer::train_step, nb::arg("x"), nb::arg("labels"),
           nb::call_guard<GilRelease>())
      .def("fit", &nn::Trainer::fit, nb::arg("x"), nb::arg("labels"), nb::arg("epochs"),
           nb::arg("batch_size"), nb::call_guard<GilRelease>())
      .def_prop_ro("model", &nn::Trainer::model);
  m.def("accuracy", &nn::accuracy, nb::arg("model"), nb::arg("x"), nb::arg("labels"),
        nb::call_guard<GilRelease>());
  nb::enum_<nn::OptimizerKind>(m, "OptimizerKind")
      .value("sgd", nn::OptimizerKind::Sgd)
      .value("adam", nn::OptimizerKind::Adam);
  nb::class_<nn::ClassifierRun>(m, "ClassifierRun")
      .def_ro("epoch_losses", &nn::ClassifierRun::epoch_losses)
      .def_ro("train_accuracy", &nn::ClassifierRun::train_accuracy)
      .def_ro("test_accuracy", &nn::ClassifierRun::test_accuracy);
  m.def(
      "train_classifier",
      [](std::int64_t samples, std::int64_t features, std::int64_t hidden, std::int64_t classes,
         int epochs, std::int64_t batch_size, nn::OptimizerKind optimizer, double lr,
         std::uint64_t seed, DType dtype) {
        return nn::train_classifier(
            {samples, features, hidden, classes, epochs, batch_size, optimizer, lr, seed, dtype});
      },
      nb::arg("samples"), nb::arg("features"), nb::arg("hidden"), nb::arg("classes"),
      nb::arg("epochs"), nb::arg("batch_size"), nb::arg("optimizer"), nb::arg("lr"),
      nb::arg("seed"), nb::arg("dtype"), nb::call_guard<GilRelease>());
  m.def(
      "make_classification",
      [](std::int64_t n, std::int64_t features, std::int64_t classes, std::uint64_t seed,
         DType dtype) {
        const nn::Dataset d = nn::make_classification(n, features, classes, seed, dtype);
        return std::make_pair(d.x, d.labels);
      },
      nb::arg("n"), nb::arg("features"), nb::arg("classes"), nb::arg("seed"), nb::arg("dtype"));
}

}  // namespace switchyard::python
