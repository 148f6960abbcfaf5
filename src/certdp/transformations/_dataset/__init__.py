"""Lemma code shared by the transformations of datasets (vectors of records)."""

from .arguments import dataset_input

__all__ = ["dataset_input"]
