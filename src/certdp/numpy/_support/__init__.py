"""Support shared by the ``dp.numpy`` constructors: row-norm tests, column sums, row selection.

Not a constructor folder (its name starts with ``_``), so nothing here is exported to ``dp.numpy``.
"""
