from django.urls import path

from . import preferences, roster_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("school/new/", views.school_setup, name="school_setup"),
    path("school/", views.school_overview, name="school_overview"),
    path("school/settings/", views.school_settings, name="school_settings"),
    path("school/roster-sync/", roster_views.roster_sync_upload, name="roster_sync"),
    path("school/roster-sync/<int:pk>/", roster_views.roster_sync_preview, name="roster_sync_preview"),
    path("invite/<str:token>/", views.invitation_accept, name="invitation_accept"),
    path("classes/new/", views.classroom_create, name="classroom_create"),
    path("classes/google/", roster_views.google_import, name="google_import"),
    path("classes/<int:pk>/google-sync/", roster_views.google_resync, name="google_resync"),
    path("classes/<int:pk>/", views.classroom_detail, name="classroom_detail"),
    path("classes/<int:pk>/edit/", views.classroom_edit, name="classroom_edit"),
    path("classes/<int:pk>/new-code/", views.classroom_new_code, name="classroom_new_code"),
    path("classes/<int:pk>/unlock-cards/", views.classroom_unlock_cards, name="classroom_unlock_cards"),
    path("classes/<int:pk>/open-device/", views.classroom_open_device, name="classroom_open_device"),
    path("classes/<int:pk>/qr.svg", views.classroom_qr, name="classroom_qr"),
    path("classes/<int:pk>/login-cards/", views.classroom_cards, name="classroom_cards"),
    path("classes/<int:pk>/roster.csv", views.classroom_export, name="classroom_export"),
    path("classes/<int:pk>/import/", views.roster_import, name="roster_import"),
    path("classes/<int:pk>/students/add/", views.student_add, name="student_add"),
    path("students/<int:pk>/", views.student_detail, name="student_detail"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_pick, name="join_pick"),
    path("join/<str:code>/<int:student_id>/", views.join_signin, name="join_signin"),
    path("me/sign-out/", views.student_signout, name="student_signout"),
    path("preferences/", preferences.preferences, name="preferences"),
    path("language/", preferences.choose_language, name="set_language"),
]
