"""A subclass of a sealed certdp class, made the way only an attacker could."""

import pytest

from certdp.core.frozen import SealedClassError


def forged_subclass(base, name, namespace):
    """A subclass of the sealed ``base`` made past its class statement's refusal (the
    metaclass's ``type.__new__`` called directly).  The class statement itself raises
    SealedClassError (asserted here); a subclass made this way must still not pass as ``base``
    (domains.tex, lemma "sealed": "however it was made")."""
    with pytest.raises(SealedClassError):
        type(base)(name, (base,), dict(namespace))
    return type.__new__(type(base), name, (base,), {"__module__": __name__, **namespace})
