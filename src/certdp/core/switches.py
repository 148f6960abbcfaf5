"""Process-wide switches read on hot paths (kept import-free to avoid cycles)."""


# proof: begin switches
class _Switch:
    __slots__ = ("enabled",)

    def __init__(self, enabled: bool = False):
        self.enabled = enabled


#: Runtime contract enforcement (``dp.enable_contracts()``).
contracts = _Switch()


# proof: end switches
