"""Report pages: per-student, class and school progress reports and their exports."""

from django.urls import path

from . import views

app_name = "reports"

urlpatterns = [
    path("", views.index, name="index"),
    path("me/", views.my_progress, name="me"),
    path("builds/<uuid:build_id>.json", views.build_status, name="build_status"),
    path("classes/<int:pk>/", views.class_report, name="class"),
    path("classes/<int:pk>/build/", views.class_build, name="class_build"),
    path("classes/<int:pk>/report.pdf", views.class_pdf, name="class_pdf"),
    path("classes/<int:pk>/skills.csv", views.class_skills_csv, name="class_skills_csv"),
    path("classes/<int:pk>/answers.csv", views.class_answers_csv, name="class_answers_csv"),
    path("classes/<int:pk>/sessions.csv", views.class_sessions_csv, name="class_sessions_csv"),
    path("classes/<int:pk>/questions.csv", views.class_items_csv, name="class_items_csv"),
    path("classes/<int:pk>/report.xlsx", views.class_xlsx, name="class_xlsx"),
    path("classes/<int:pk>/questions/", views.class_items, name="class_items"),
    path("classes/<int:pk>/questions/review/", views.class_item_review, name="class_item_review"),
    path("classes/<int:pk>/students/<int:student_id>/", views.student_report, name="student"),
    path("classes/<int:pk>/students/<int:student_id>/build/", views.student_build, name="student_build"),
    path("classes/<int:pk>/students/<int:student_id>/apply/", views.apply_level, name="apply_level"),
    path("classes/<int:pk>/students/<int:student_id>/report.pdf", views.student_pdf, name="student_pdf"),
    path(
        "classes/<int:pk>/students/<int:student_id>/summary/", views.student_summary, name="student_summary"
    ),
    path(
        "classes/<int:pk>/students/<int:student_id>/answers.csv",
        views.student_answers_csv,
        name="student_answers_csv",
    ),
    path("content/", views.content_left, name="content"),
    path("school/", views.school_review, name="school"),
    path("school/build/", views.school_build, name="school_build"),
    path("school/skills.csv", views.school_skills_csv, name="school_skills_csv"),
    path("school/students/<int:student_id>/data/", views.student_data, name="student_data"),
    path("school/students/<int:student_id>/data.json", views.student_data_export, name="student_data_export"),
]
