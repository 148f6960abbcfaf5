"""Parameter search (OpenDP's ``binary_search``, ``binary_search_param``,
``binary_search_chain``)."""

from .binary_search import (
    BinarySearchError,
    binary_search,
    binary_search_chain,
    binary_search_param,
)

__all__ = ["BinarySearchError", "binary_search", "binary_search_param", "binary_search_chain"]
