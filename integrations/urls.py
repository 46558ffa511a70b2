from django.urls import path

from . import views

app_name = "integrations"

urlpatterns = [
    path("", views.platforms, name="platforms"),
    path("platforms/new/", views.platform_edit, name="platform_new"),
    path("platforms/<int:pk>/", views.platform_edit, name="platform_edit"),
    path("jwks/", views.jwks, name="jwks"),
    path("login/", views.oidc_login, name="login"),
    path("launch/", views.launch, name="launch"),
    path("link/", views.link_account, name="link"),
    path("deep-link/<uuid:pk>/", views.deep_link, name="deep_link"),
    path("courses/<int:pk>/sync/", views.roster_sync, name="roster_sync"),
]
