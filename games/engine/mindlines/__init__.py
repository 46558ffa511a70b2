"""Mind the Lines (game name ``mindlines``): see :mod:`.rules` for the rules, :mod:`.boards` for the
scribble boards and stroke validation."""

from .rules import MindTheLines

__all__ = ["MindTheLines"]
