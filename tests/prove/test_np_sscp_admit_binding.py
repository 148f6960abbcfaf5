"""Referee ref-sscp, finding 8 (claim table item 8): the output-domain obligation of the SMT
model of make_np_sscp must judge membership with the REAL ``NPSSCPDomain.admit``.  Two unsound
edits of ``admit`` (each refuses an output the real constructor produces) must be refuted."""

import numpy as np

import certdp.prelude as dp

from .edited import prove_edited

DOMAIN_FILE = "numpy/sscp_domain/sscp_domain.py"


def _sscp(k=2, T="f64", **kw):
    dp.enable_features("contrib")
    domain = dp.numpy.array2_domain(num_columns=k, T=T, nan=False, **kw)
    return dp.numpy.make_np_sscp(domain, dp.symmetric_distance())


def test_model_refutes_an_admit_that_refuses_a_zero_diagonal(tmp_path):
    """Diagonal ``> 0``: G of the empty or an all-zero dataset is no longer a member."""
    edit = (
        "if not np.all(np.diagonal(value) >= 0):",
        "if not np.all(np.diagonal(value) > 0):",
    )
    summary = prove_edited(tmp_path, "make_np_sscp", {DOMAIN_FILE: [edit]}, select="output domain")
    assert summary["status"] == "counterexample", summary


def test_model_refutes_an_admit_that_refuses_symmetric_nans(tmp_path):
    """``equal_nan=False``: G([[inf, 0]]) (NaN pair off the diagonal) is no longer a member."""
    edit = (
        "np.array_equal(value, value.T, equal_nan=True)",
        "np.array_equal(value, value.T, equal_nan=False)",
    )
    summary = prove_edited(tmp_path, "make_np_sscp", {DOMAIN_FILE: [edit]}, select="output domain")
    assert summary["status"] == "counterexample", summary


def test_the_nan_edit_above_really_is_unsound():
    """Control: the real constructor makes a NaN pair from [[inf, 0]], which only
    ``equal_nan=True`` admits."""
    out = _sscp()(np.array([[np.inf, 0.0]]))
    assert np.isnan(out[0, 1]) and np.isnan(out[1, 0])
    assert not np.array_equal(out, out.T, equal_nan=False)
