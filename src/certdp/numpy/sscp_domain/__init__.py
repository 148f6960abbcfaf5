"""The domain of sums-of-squares-and-cross-products matrices ``X^T X`` of 2-D float arrays, and
``sscp_matrix``, the one order in which certdp computes them (not exported to ``dp.numpy``)."""

from .sscp_domain import NPSSCPDomain, _sscp_domain
from .sscp_domain import sscp_matrix as sscp_matrix

__all__ = ["_sscp_domain", "NPSSCPDomain"]
