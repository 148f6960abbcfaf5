"""Shared support of the randomized-response mechanisms: the privacy loss ``c |ln q|`` rounded
up (log_ratio.tex)."""
