from django.contrib import admin

from .models import CourseLink, Platform, RosterRun, ScoreSent


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    list_display = ["name", "school", "issuer", "client_id"]
    search_fields = ["name", "issuer", "client_id"]


@admin.register(CourseLink)
class CourseLinkAdmin(admin.ModelAdmin):
    list_display = ["title", "platform", "classroom", "roster_synced_at"]


@admin.register(ScoreSent)
class ScoreSentAdmin(admin.ModelAdmin):
    list_display = ["resource_link", "student", "score_given", "attempts", "sent_at"]
    list_filter = ["sent_at"]


@admin.register(RosterRun)
class RosterRunAdmin(admin.ModelAdmin):
    list_display = ["course", "finished_at", "outcome", "added", "renamed", "removed", "error"]
    list_filter = ["outcome"]
