"""Support shared by the contracts of the combinators."""
