"""Scale <-> accuracy conversions (OpenDP's ``dp.*_scale_to_accuracy`` and
``dp.accuracy_to_*_scale``), rounded on the safe side; lemma in ``accuracy.tex``."""

from .accuracy import (
    AccuracyParameterError,
    accuracy_to_discrete_gaussian_scale,
    accuracy_to_discrete_laplacian_scale,
    accuracy_to_gaussian_scale,
    accuracy_to_laplacian_scale,
    discrete_gaussian_scale_to_accuracy,
    discrete_laplacian_scale_to_accuracy,
    gaussian_scale_to_accuracy,
    laplacian_scale_to_accuracy,
)

__all__ = [
    "AccuracyParameterError",
    "laplacian_scale_to_accuracy",
    "accuracy_to_laplacian_scale",
    "discrete_laplacian_scale_to_accuracy",
    "accuracy_to_discrete_laplacian_scale",
    "gaussian_scale_to_accuracy",
    "accuracy_to_gaussian_scale",
    "discrete_gaussian_scale_to_accuracy",
    "accuracy_to_discrete_gaussian_scale",
]
