"""The domain of sums-of-squares-and-cross-products matrices ``X^T X`` of 2-D float arrays."""

from .sscp_domain import NPSSCPDomain, _sscp_domain, sscp_matrix

__all__ = ["_sscp_domain", "NPSSCPDomain", "sscp_matrix"]
