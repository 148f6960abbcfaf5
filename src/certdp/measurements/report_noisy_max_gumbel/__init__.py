"""Report noisy max under the max-divergence (OpenDP's deprecated
make_report_noisy_max_gumbel)."""

from .make_report_noisy_max_gumbel import (
    make_report_noisy_max_gumbel,
    then_report_noisy_max_gumbel,
)

__all__ = ["make_report_noisy_max_gumbel", "then_report_noisy_max_gumbel"]
