"""Pages of their own for this game (mounted at /games/faces/), beyond the shared live screens."""

urlpatterns: list = []
