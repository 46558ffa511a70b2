"""Line-Up (game name ``faces``): the seeded Guess Who game. See docs/games/faces.md."""

from .rules import Faces, commitment_of
from .verify import verify

__all__ = ["Faces", "commitment_of", "verify"]
