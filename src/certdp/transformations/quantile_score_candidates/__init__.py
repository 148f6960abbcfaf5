"""Integer scores of candidate quantiles (Smith 2011), the input of a private selection."""

from .make_quantile_score_candidates import (
    make_quantile_score_candidates,
    then_quantile_score_candidates,
)

__all__ = ["make_quantile_score_candidates", "then_quantile_score_candidates"]
