"""Put datasets in a uniformly random order: symmetric to insert-delete, change-one to Hamming."""

from .make_ordered_random import make_ordered_random, then_ordered_random

__all__ = ["make_ordered_random", "then_ordered_random"]
