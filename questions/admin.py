"""Admin views of the banks, for platform staff (teachers use the bank pages): each kind's items with the
columns its definition names (``BankKind.admin``), and the word lists and question rotation."""

from django.contrib import admin

from .kinds import KINDS
from .models import QuestionUse, WordList


class OwnedItemAdmin(admin.ModelAdmin):
    list_select_related = ["school", "author"]
    search_fields = ["key"]
    raw_id_fields = ["school", "author"]

    @admin.display(boolean=True, description="shipped")
    def shipped(self, item) -> bool:
        return item.is_shipped


for _kind in KINDS.values():
    admin.site.register(
        _kind.model, type(f"{_kind.model.__name__}Admin", (OwnedItemAdmin,), dict(_kind.admin))
    )


@admin.register(WordList)
class WordListAdmin(admin.ModelAdmin):
    list_display = ["name", "school", "author", "updated_at"]
    search_fields = ["name"]
    raw_id_fields = ["school", "author"]


@admin.register(QuestionUse)
class QuestionUseAdmin(admin.ModelAdmin):
    list_display = ["classroom", "question", "times_used", "last_used_at"]
    raw_id_fields = ["classroom", "question"]
