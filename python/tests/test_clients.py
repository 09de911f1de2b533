"""Libraries our users call, run on Switchyard arrays through the array API: scikit-learn with
array_api_dispatch and SciPy with SCIPY_ARRAY_API=1. Each result is a Switchyard array (or a
Python float where the library returns one) and equals the same call on NumPy inputs within the
algorithm's rounding: n·eps of float64 for a statistic over n samples."""

import os

os.environ["SCIPY_ARRAY_API"] = "1"  # read when SciPy is first imported

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import switchyard as sy  # noqa: E402
from conftest import has, require  # noqa: E402

sklearn = pytest.importorskip("sklearn")
scipy_special = pytest.importorskip("scipy.special")
scipy_stats = pytest.importorskip("scipy.stats")
scipy_signal = pytest.importorskip("scipy.signal")

from sklearn import decomposition, discriminant_analysis, linear_model  # noqa: E402
from sklearn import metrics, preprocessing  # noqa: E402

SAMPLES, FEATURES = 200, 5


@pytest.fixture
def data(rng):
    x = rng.normal(size=(SAMPLES, FEATURES)) * [1, 10, 0.1, 3, 7] + [0, 5, -2, 1, 0]
    labels = (x[:, 0] > 0).astype(np.int64)
    target = x @ rng.normal(size=FEATURES)
    return x, labels, target


def assert_matches(got, want):
    """Equal within n·eps of the result's scale, n the samples a value is computed from."""
    if type(want) is float:  # a Python float, not NumPy's float64 scalar (a 0-d array to us)
        assert type(got) is float
    else:
        assert isinstance(got, sy.Array), f"expected a Switchyard array, got {type(got)}"
    want = np.asarray(want, dtype=np.float64)
    bound = SAMPLES * np.finfo(np.float64).eps
    np.testing.assert_allclose(np.asarray(got), want, rtol=bound,
                               atol=bound * float(np.max(np.abs(want), initial=1.0)))


@pytest.mark.parametrize("make", [preprocessing.StandardScaler, preprocessing.MinMaxScaler,
                                  preprocessing.MaxAbsScaler, preprocessing.Normalizer])
def test_scikit_learn_scalers(on_device, data, make):
    x = data[0]
    with sklearn.config_context(array_api_dispatch=True):
        got = make().fit_transform(sy.asarray(x))
    assert_matches(got, make().fit_transform(x))


@pytest.mark.parametrize("score", [metrics.accuracy_score, metrics.mean_squared_error,
                                   metrics.r2_score])
def test_scikit_learn_metrics(on_device, data, score):
    _, labels, target = data
    truth, guess = (labels, labels[::-1]) if score is metrics.accuracy_score else (
        target, target * 0.9 + 0.1)
    with sklearn.config_context(array_api_dispatch=True):
        got = score(sy.asarray(truth), sy.asarray(guess))
    assert_matches(got, score(truth, guess))


# Estimators whose fit factorises (linalg.svd): the factorisation runs where LAPACK is, whatever
# device the rest was placed on. A principal component's sign is arbitrary: compared in magnitude.
@pytest.mark.parametrize("name", ["pca", "ridge", "lda"])
def test_scikit_learn_estimators_that_factorise(on_device, data, name):
    x, labels, target = data
    fits = {
        "pca": lambda a, y, t: abs(decomposition.PCA(n_components=3, svd_solver="full")
                                   .fit_transform(a)),
        "ridge": lambda a, y, t: linear_model.Ridge(alpha=1.0, solver="svd").fit(a, t).predict(a),
        "lda": lambda a, y, t: discriminant_analysis.LinearDiscriminantAnalysis()
        .fit(a, y).predict_proba(a),
    }
    inputs = sy.asarray(x), sy.asarray(labels), sy.asarray(target)
    with sklearn.config_context(array_api_dispatch=True):
        if not has(on_device, "dense_solvers"):
            # Pinned to a device without a dense solver: a clear error, never a wrong result.
            with pytest.raises(ValueError, match="no dense solver"):
                fits[name](*inputs)
            return
        got = fits[name](*inputs)
    assert_matches(got, fits[name](x, labels, target))


@pytest.mark.parametrize("name", ["logsumexp", "erf", "zscore", "pearsonr", "fftconvolve"])
def test_scipy_functions(on_device, data, name):
    if name == "fftconvolve":
        require(on_device, "fft")
    x = data[0]
    calls = {
        "logsumexp": lambda a: scipy_special.logsumexp(a, axis=(0, 1)),
        "erf": lambda a: scipy_special.erf(a / 10),
        "zscore": lambda a: scipy_stats.zscore(a, axis=0),
        "pearsonr": lambda a: scipy_stats.pearsonr(a[:, 0], a[:, 3]).statistic,
        "fftconvolve": lambda a: scipy_signal.fftconvolve(a[:, 1], a[:40, 2]),
    }
    assert_matches(calls[name](sy.asarray(x)), calls[name](x))
