from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import (
    AccommodationChange,
    Accommodations,
    Classroom,
    Enrolment,
    Invitation,
    LevelChange,
    Membership,
    RosterSync,
    School,
    Student,
    StudentLevel,
    User,
)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ["email"]
    list_display = ["email", "display_name", "is_staff", "is_superuser", "is_active"]
    search_fields = ["email", "display_name"]
    fieldsets = (
        (None, {"fields": ("email", "password", "display_name", "language")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(School)
class SchoolAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ["name", "school", "subject", "grade", "archived"]
    list_filter = ["school", "archived"]
    search_fields = ["name"]
    filter_horizontal = ["teachers"]


class EnrolmentInline(admin.TabularInline):
    model = Enrolment
    extra = 0


class StudentLevelInline(admin.TabularInline):
    model = StudentLevel
    extra = 0


@admin.register(Student)
class StudentAdmin(admin.ModelAdmin):
    list_display = ["display_name", "school", "external_id"]
    list_filter = ["school"]
    search_fields = ["display_name", "given_name", "family_name", "external_id"]
    exclude = ["signin_code"]
    inlines = [EnrolmentInline, StudentLevelInline]


admin.site.register(Invitation)
admin.site.register(LevelChange)
admin.site.register(Accommodations)
admin.site.register(AccommodationChange)


@admin.register(RosterSync)
class RosterSyncAdmin(admin.ModelAdmin):
    """The record of each whole-school roster sync (read-only: a sync is made on the school's page)."""

    list_display = ["school", "created_at", "uploaded_by", "file_name", "status", "applied_at"]
    list_filter = ["status"]
    exclude = ["data"]
    readonly_fields = [
        "school",
        "uploaded_by",
        "file_name",
        "source_system",
        "org_id",
        "status",
        "counts",
        "problems",
        "created_at",
        "applied_at",
    ]

    def has_add_permission(self, request):
        return False
