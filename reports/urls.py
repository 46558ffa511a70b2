"""Report pages (issue: per-student progress reports)."""

app_name = "reports"

urlpatterns: list = []
