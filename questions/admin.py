"""Admin views of the banks, for platform staff (teachers use the bank pages)."""

from django.contrib import admin

from .models import Concept, LineupQuestion, QuestionUse, WordList, WordUpQuestion


class OwnedItemAdmin(admin.ModelAdmin):
    list_select_related = ["school", "author"]
    search_fields = ["key"]
    raw_id_fields = ["school", "author"]

    @admin.display(boolean=True, description="shipped")
    def shipped(self, item) -> bool:
        return item.is_shipped


@admin.register(LineupQuestion)
class LineupQuestionAdmin(OwnedItemAdmin):
    list_display = ["key", "heading", "level", "subject", "school", "shipped"]
    list_filter = ["level", "subject"]
    search_fields = ["key", "heading"]


@admin.register(WordUpQuestion)
class WordUpQuestionAdmin(OwnedItemAdmin):
    list_display = ["key", "level", "category", "prompt", "estimated_level", "school", "shipped"]
    list_filter = ["level", "category"]
    search_fields = ["key", "prompt", "sentence"]
    readonly_fields = ["estimated_level"]


@admin.register(Concept)
class ConceptAdmin(OwnedItemAdmin):
    list_display = ["key", "text", "difficulty", "theme", "word_list", "school", "shipped"]
    list_filter = ["difficulty"]
    search_fields = ["key", "text"]
    raw_id_fields = ["school", "author", "word_list"]


@admin.register(WordList)
class WordListAdmin(admin.ModelAdmin):
    list_display = ["name", "school", "author", "updated_at"]
    search_fields = ["name"]
    raw_id_fields = ["school", "author"]


@admin.register(QuestionUse)
class QuestionUseAdmin(admin.ModelAdmin):
    list_display = ["classroom", "question", "times_used", "last_used_at"]
    raw_id_fields = ["classroom", "question"]
