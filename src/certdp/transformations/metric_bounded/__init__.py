"""Re-read sized datasets under the change-one or Hamming distance."""

from .make_metric_bounded import make_metric_bounded, then_metric_bounded

__all__ = ["make_metric_bounded", "then_metric_bounded"]
