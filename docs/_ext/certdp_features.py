"""Sphinx extension: ``.. certdp-feature-uses::`` tabulates where the code tests each feature.

The table is read from the package's source at build time: every call
``feature_enabled("<name>")`` or ``assert_features("<name>", ...)`` in ``certdp`` is a place
where the named feature changes what the library does.  A feature that appears nowhere is
accepted by ``dp.enable_features`` (so OpenDP code that enables it runs) but unlocks nothing in
this version, and the table says so.  Every feature of ``certdp.core.features.KNOWN_FEATURES``
gets a row.
"""

from __future__ import annotations

import ast
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

__all__ = ["FEATURE_CALLS", "feature_uses", "setup"]

#: The functions whose first string arguments name features.
FEATURE_CALLS = {"feature_enabled", "assert_features"}


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def feature_uses(package: Path | None = None) -> dict[str, list[str]]:
    """``{feature: [module, ...]}``: the modules of ``certdp`` that test each feature."""
    import certdp
    from certdp.core.features import KNOWN_FEATURES

    package = package or Path(certdp.__file__).resolve().parent
    uses: dict[str, set[str]] = {feature: set() for feature in KNOWN_FEATURES}
    for source in sorted(package.rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
        module = ".".join(("certdp", *source.relative_to(package).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node) in FEATURE_CALLS:
                for argument in node.args:
                    if isinstance(argument, ast.Constant) and argument.value in uses:
                        uses[argument.value].add(module)
    return {feature: sorted(modules) for feature, modules in sorted(uses.items())}


class FeatureUsesDirective(SphinxDirective):
    """A table: each known feature, and the modules whose code tests it."""

    def run(self) -> list[nodes.Node]:
        lines = [".. list-table::", "   :header-rows: 1", "", "   * - Feature", "     - Tested in"]
        for feature, modules in feature_uses().items():
            where = ", ".join(f"``{module}``" for module in modules)
            lines += [f"   * - ``{feature}``", f"     - {where or '*nowhere in this version*'}"]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="certdp-feature-uses"), 0, container)
        return container.children


def setup(app):
    app.add_directive("certdp-feature-uses", FeatureUsesDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
