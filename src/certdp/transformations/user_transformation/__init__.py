"""``make_user_transformation``: a transformation whose stability claim is the user's."""

from .user_transformation import make_user_transformation

__all__ = ["make_user_transformation"]
