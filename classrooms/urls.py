from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("school/new/", views.school_setup, name="school_setup"),
    path("school/", views.school_overview, name="school_overview"),
    path("invite/<str:token>/", views.invitation_accept, name="invitation_accept"),
    path("classes/new/", views.classroom_create, name="classroom_create"),
    path("classes/<int:pk>/", views.classroom_detail, name="classroom_detail"),
    path("classes/<int:pk>/edit/", views.classroom_edit, name="classroom_edit"),
    path("classes/<int:pk>/new-code/", views.classroom_new_code, name="classroom_new_code"),
    path("classes/<int:pk>/qr.svg", views.classroom_qr, name="classroom_qr"),
    path("classes/<int:pk>/login-cards/", views.classroom_cards, name="classroom_cards"),
    path("classes/<int:pk>/roster.csv", views.classroom_export, name="classroom_export"),
    path("classes/<int:pk>/import/", views.roster_import, name="roster_import"),
    path("classes/<int:pk>/students/add/", views.student_add, name="student_add"),
    path("students/<int:pk>/", views.student_detail, name="student_detail"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_pick, name="join_pick"),
    path("join/<str:code>/<int:student_id>/", views.join_signin, name="join_signin"),
    path("me/", views.student_home, name="student_home"),
    path("me/sign-out/", views.student_signout, name="student_signout"),
]
