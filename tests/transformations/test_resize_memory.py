"""make_resize padding under memory pressure: a size the platform accepts but the process
cannot hold gives a typed error naming ``size``, not a MemoryError or a crash.

Each case runs in a child process whose address space is capped (RLIMIT_AS) at what it uses
after importing certdp plus 300 MiB, so the machine's memory is never at risk."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

resource = pytest.importorskip("resource")  # POSIX only

CHILD = textwrap.dedent(
    """
    import resource, sys
    import certdp.prelude as dp
    dp.enable_features("contrib")  # the test is about the function, vetted or not
    used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
    cap = used + 300 * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resize = dp.t.make_resize(
        dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(),
        size=int(sys.argv[1]), constant=0,
    )
    try:
        out = resize([1, 2, 3])
    except BaseException as error:
        print(type(error).__name__, isinstance(error, dp.DPError), getattr(error, "parameter", None))
    else:
        print("released", len(out))
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
@pytest.mark.parametrize("size", [10**9, 4 * 10**7])
def test_padding_beyond_free_memory_is_a_typed_error(size):
    # 10**9 records need 8 GB of pointers, 4 * 10**7 need 320 MB (twice that while padding):
    # both beyond the 300 MiB the child may still allocate
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(size)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["FailedFunctionError", "True", "size"], result.stdout
