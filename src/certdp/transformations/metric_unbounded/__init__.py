"""Re-read sized datasets under the symmetric or insert-delete distance."""

from .make_metric_unbounded import make_metric_unbounded, then_metric_unbounded

__all__ = ["make_metric_unbounded", "then_metric_unbounded"]
