"""Pages of their own for this game (mounted at /games/lineup/), beyond the shared live screens."""

urlpatterns: list = []
