"""Pages of their own for this game (mounted at /games/lineit/), beyond the shared live screens."""

urlpatterns: list = []
