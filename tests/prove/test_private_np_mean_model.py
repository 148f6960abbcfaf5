"""The model of make_private_np_mean takes the map from the code: an edit that releases with
the scale sigma but states the map of 2 sigma is refuted; the unedited code is proved."""

from .edited import prove_edited

FILE = "numpy/private_np_mean/make_private_np_mean.py"
SELECT = "f64 p=1 norm=1.0 n=100"


def test_a_map_claiming_twice_the_noise_is_refuted(tmp_path):
    old = "noisy = summed >> make_laplace(*summed.output_space, noise_scale)  # label: laplace"
    new = (
        old + "\n        noisy._map = (summed >> make_laplace(*summed.output_space,"
        " 2 * noise_scale)).map"
    )
    summary = prove_edited(tmp_path, "make_private_np_mean", {FILE: [(old, new)]}, select=SELECT)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_private_np_mean", {}, select=SELECT)
    assert summary["status"] == "proved", summary
