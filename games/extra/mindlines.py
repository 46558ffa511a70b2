"""Pages of their own for this game (mounted at /games/mindlines/), beyond the shared live screens."""

urlpatterns: list = []
