"""Sphinx extension: ``.. certdp-run::`` runs an example at build time and shows what it prints.

The numbers the guide shows are therefore the numbers the code computes today.  Blocks of one
page share a namespace (the first one imports what it needs) and run in the page's folder, so
an example opens a data file beside its page by a relative path; each page starts with contracts
off and no feature enabled.  Searches made with ``hypothesis`` are derandomized and keep no
example database, so a rebuild prints the same thing.  An example that raises is a warning (so a
``-W`` build fails), unless it declares the error it demonstrates with ``:raises: ErrorName``,
and then it must raise exactly that.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

__all__ = ["RunDirective", "setup"]

logger = logging.getLogger(__name__)


def _fresh_namespace() -> dict:
    from certdp.contracts import disable_contracts
    from certdp.core.features import KNOWN_FEATURES, disable_features

    disable_contracts()
    disable_features(*KNOWN_FEATURES)
    return {"__name__": "__certdp_example__"}


class RunDirective(SphinxDirective):
    """Run the content as Python; show the code, then its output."""

    has_content = True
    option_spec = {"raises": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        namespace = self.env.temp_data.get("certdp_run_namespace")
        if namespace is None:
            namespace = self.env.temp_data["certdp_run_namespace"] = _fresh_namespace()
        code = "\n".join(self.content)
        printed = io.StringIO()
        raised = None
        folder = Path(self.env.doc2path(self.env.docname)).parent
        try:
            with contextlib.redirect_stdout(printed), contextlib.chdir(folder):
                exec(compile(code, f"<{self.env.docname} line {self.lineno}>", "exec"), namespace)
        except Exception as error:  # shown on the page, and a warning unless declared
            raised = error

        expected = self.options.get("raises")
        output = printed.getvalue()
        if raised is not None:
            output += f"{type(raised).__name__}: {raised}\n"
            if type(raised).__name__ != expected:
                logger.warning(
                    "example raised %s: %s",
                    type(raised).__name__,
                    raised,
                    location=self.get_location(),
                    type="certdp",
                    subtype="example",
                )
        elif expected is not None:
            logger.warning(
                "example was declared to raise %s but did not",
                expected,
                location=self.get_location(),
                type="certdp",
                subtype="example",
            )

        shown = [nodes.literal_block(code, code, language="python")]
        if output:
            block = nodes.literal_block(output, output, language="text", classes=["certdp-output"])
            shown.append(block)
        return shown


def _deterministic_hypothesis() -> None:
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "certdp-docs",
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=[HealthCheck.too_slow],
    )
    settings.load_profile("certdp-docs")


def setup(app):
    _deterministic_hypothesis()
    app.add_directive("certdp-run", RunDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
