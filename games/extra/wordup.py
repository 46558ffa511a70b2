"""Pages of their own for this game (mounted at /games/wordup/), beyond the shared live screens."""

urlpatterns: list = []
