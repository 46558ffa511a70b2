"""The bank pages, included by config/urls.py as ``path("questions/", include("questions.urls"))``."""

from django.urls import path, register_converter

from . import views
from .kinds import is_kind


class KindConverter:
    """A registered bank kind's name (questions.kinds); any other name is no page."""

    regex = "[a-z][a-z0-9_]*"

    def to_python(self, value: str) -> str:
        if not is_kind(value):
            raise ValueError(value)
        return value

    def to_url(self, value: str) -> str:
        return value


class ExportFormatConverter:
    regex = "csv|json"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class VocabularyFormatConverter(ExportFormatConverter):
    regex = "txt|csv"


register_converter(KindConverter, "bankkind")
register_converter(VocabularyFormatConverter, "vocabularyformat")
register_converter(ExportFormatConverter, "bankformat")

app_name = "questions"

urlpatterns = [
    path("", views.index, name="index"),
    path("lists/", views.word_lists, name="word_lists"),
    path("lists/<int:pk>/", views.word_list_detail, name="word_list_detail"),
    path("lists/<int:pk>/delete/", views.word_list_delete, name="word_list_delete"),
    path("vocabulary/import/", views.vocabulary_import, name="vocabulary_import"),
    path("vocabulary/<int:pk>/", views.vocabulary_detail, name="vocabulary_detail"),
    path(
        "vocabulary/<int:pk>/export.<vocabularyformat:fmt>", views.vocabulary_export, name="vocabulary_export"
    ),
    path("vocabulary/<int:pk>/delete/", views.vocabulary_delete, name="vocabulary_delete"),
    path("<bankkind:kind>/", views.bank, name="bank"),
    path("<bankkind:kind>/new/", views.item_create, name="item_create"),
    path("<bankkind:kind>/import/", views.import_items, name="import"),
    path("<bankkind:kind>/export.<bankformat:fmt>", views.export_items, name="export"),
    path("<bankkind:kind>/template.csv", views.import_template, name="import_template"),
    path("<bankkind:kind>/<int:pk>/", views.item_detail, name="item_detail"),
    path("<bankkind:kind>/<int:pk>/edit/", views.item_edit, name="item_edit"),
    path("<bankkind:kind>/<int:pk>/delete/", views.item_delete, name="item_delete"),
]
