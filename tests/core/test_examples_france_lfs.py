"""dp.examples.get_france_lfs_path(): OpenDP 0.16 downloads the sample on first use; certdp ships
no copy (none was supplied) and never downloads, so it refuses with a typed error saying so."""

import socket

import pytest

import certdp.prelude as dp
from certdp.examples import ExampleDataNotShippedError


def test_the_france_lfs_path_is_refused_with_a_typed_error(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("get_france_lfs_path tried to open a connection")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    with pytest.raises(ExampleDataNotShippedError) as caught:
        dp.examples.get_france_lfs_path()
    error = caught.value
    assert isinstance(error, dp.DPError) and isinstance(error, dp.OpenDPException)
    assert isinstance(error, FileNotFoundError)  # what a reader of a missing file expects
    assert error.variant == "ExampleDataNotShipped"
    assert "not shipped" in error.message and "never downloads" in error.message
    assert "V2_FR_LFS.csv" in error.message


def test_examples_lists_both_paths_and_the_shipped_one_exists():
    assert {"get_california_pums_path", "get_france_lfs_path"} <= set(dp.examples.__all__)
    assert dp.examples.get_california_pums_path().is_file()
    assert not any(
        path.name.lower().startswith("v2_france")
        for path in dp.examples.get_california_pums_path().parent.iterdir()
    )
