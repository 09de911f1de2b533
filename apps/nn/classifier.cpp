#include <string>

#include "switchyard/apps/nn.hpp"

namespace switchyard::apps::nn {

ClassifierRun train_classifier(const ClassifierSetup& setup) {
  if (setup.samples < 5)
    throw ValueError("samples: expected at least 5 (one held out in five), given " +
                     std::to_string(setup.samples));
  const Dataset data =
      make_classification(setup.samples, setup.features, setup.classes, setup.seed, setup.dtype);
  const std::int64_t train = setup.samples - setup.samples / 5;
  const Array x_train = data.x.slice(0, 0, train), y_train = data.labels.slice(0, 0, train);
  const Array x_test = data.x.slice(0, train, std::nullopt);
  const Array y_test = data.labels.slice(0, train, std::nullopt);
  std::shared_ptr<const Optimizer> optimizer;
  if (setup.optimizer == OptimizerKind::Adam)
    optimizer = std::make_shared<Adam>(setup.lr);
  else
    optimizer = std::make_shared<SGD>(setup.lr, 0.9);
  Trainer trainer(MLP({setup.features, setup.hidden, setup.classes}, setup.seed + 7, setup.dtype),
                  optimizer);
  ClassifierRun run;
  run.epoch_losses = trainer.fit(x_train, y_train, setup.epochs, setup.batch_size);
  run.train_accuracy = accuracy(trainer.model(), x_train, y_train);
  run.test_accuracy = accuracy(trainer.model(), x_test, y_test);
  return run;
}

}  // namespace switchyard::apps::nn
