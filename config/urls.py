from django.contrib import admin
from django.urls import include, path

from games import home

from .health import healthz
from .i18n import current_javascript_catalog, javascript_catalog
from .metrics import metrics_view
from .status import system_status

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("staff/status/", system_status, name="system_status"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("jsi18n/", current_javascript_catalog, name="javascript-catalog"),
    path("jsi18n/<str:language>/", javascript_catalog, name="javascript-catalog-for"),
    path("questions/", include("questions.urls")),
    path("reports/", include("reports.urls")),
    path("lti/", include("integrations.urls")),
    # Each person's landing page (they gather classes and games, so the games app serves them).
    path("dashboard/", home.dashboard, name="dashboard"),
    path("me/", home.student_home, name="student_home"),
    path("", include("games.urls")),
    path("", include("classrooms.urls")),
]
