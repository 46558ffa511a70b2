"""Word Up, the ESL vocabulary board game (game name ``wordup``). See docs/games/wordup.md."""

from .engine import WordUp

__all__ = ["WordUp"]
