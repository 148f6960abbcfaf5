"""Sphinx configuration of the certdp site (``make docs``).

Everything about constructors is generated at build time from the source tree by the
extensions in ``_ext/``; the build needs no network.
"""

import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent / "src"))  # document this tree, not an installed copy
sys.path.insert(0, str(DOCS / "_ext"))

import certdp  # noqa: E402

project = "certdp"
author = "the certdp developers"
copyright = "the certdp developers"
release = version = certdp.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.imgmath",
    "certdp_api",
    "certdp_pages",
    "certdp_run",
    "certdp_plots",
    "certdp_features",
]

exclude_patterns = ["_build", "_ext"]

# Signatures and docstrings exactly as written; no type-hint expansion into descriptions.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# OpenDP's introspection attributes ``metric.type`` and ``domain.carrier_type`` (attached by
# core/type_strings) are not documented as members: a documented ``type`` member becomes a second
# target for every annotation naming the builtin ``type``, which Sphinx reports as ambiguous.
autodoc_default_options = {"exclude-members": "type, carrier_type"}
add_module_names = False

# Formulas are rendered to SVG by LaTeX at build time, so the site shows them offline.
if shutil.which("dvisvgm") is None:
    raise RuntimeError("the docs render formulas with dvisvgm: apt-get install dvisvgm")
imgmath_image_format = "svg"
imgmath_embed = False  # SVGs kept in _images/math: an unchanged formula is not redrawn
imgmath_use_preview = True  # inline formulas sit on the baseline (preview.sty: texlive-latex-extra)
imgmath_font_size = 14
imgmath_latex_preamble = r"\usepackage{amsmath,amssymb}"

html_theme = "furo"
html_title = f"certdp {release}"
html_static_path = ["_static"]
html_css_files = ["certdp.css"]
html_show_sourcelink = False
