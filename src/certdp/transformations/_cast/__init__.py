"""Lemma code shared by the casts: one value of one carrier type as a value of another."""

from .convert import convert, record_value

__all__ = ["convert", "record_value"]
