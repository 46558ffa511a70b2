"""Teachers' bank pages: browse and filter each bank, write, edit and delete the school's own items,
import (upload, preview with per-row errors, confirm) and export (CSV, JSON), and word lists.

Only signed-in staff with a school. Shipped items are read-only; a colleague's items can be read but
changed only by their author or a school admin (403); another school's items do not exist here (404).
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from classrooms.selectors import admin_school_ids

from . import selectors, services
from .formats import BankFileError, to_csv, to_json
from .forms import AddWordsForm, BankFilterForm, ImportForm, VocabularyImportForm, WordListForm
from .kinds import KINDS, kind_of, word_list_kind
from .kinds import kind as bank_kind
from .models import VocabularyList, WordList
from .validation import WORDUP_CATEGORIES
from .vocabulary import build_questions, export_vocabulary, parse_vocabulary

PAGE_SIZE = 50
IMPORT_SESSION_KEY = "classplay_question_import"
VOCABULARY_SESSION_KEY = "classplay_vocabulary_import"


# --- helpers ---------------------------------------------------------------------------------------------


def staff_with_school(view):
    """Signed-in staff who belong to a school; others are sent to sign in or to set up their school."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        school = selectors.bank_school(request.user)
        if school is None:
            return redirect("school_setup")
        request.bank_school = school
        return view(request, *args, **kwargs)

    return wrapper


def _editable_checker(user):
    """``can_edit(item)`` for many items in two queries (instead of two per item)."""
    school_ids = selectors.staff_school_ids(user)
    admin_ids = admin_school_ids(user)

    def owner_may(school_id, author_id) -> bool:
        return school_id in school_ids and (author_id == user.pk or school_id in admin_ids)

    def can_edit(item) -> bool:
        if item.school_id is None:
            return False
        if kind_of(item).on_word_lists:
            return owner_may(item.word_list.school_id, item.word_list.author_id)
        return owner_may(item.school_id, item.author_id)

    return can_edit


def _item_or_404(request, kind: str, pk: int):
    item = selectors.item_for_user(kind, request.user, pk)
    if item is None:
        raise Http404
    return item


def _editable_item(request, kind: str, pk: int):
    item = _item_or_404(request, kind, pk)
    if not selectors.can_edit_item(request.user, item):
        raise PermissionDenied(_("Shipped items, and your colleagues' items, are read-only for you."))
    return item


def _apply_validation_error(form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for name, errors in error.message_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


def _filter_form(request, kind: str) -> BankFilterForm:
    bank = bank_kind(kind)
    field = bank.choice_filter
    choices = selectors.distinct_values(kind, request.user, field) if field else []
    word_lists = selectors.visible_word_lists(request.user) if bank.on_word_lists else ()
    return BankFilterForm(request.GET or None, kind=bank, choices=choices, word_lists=word_lists)


def _querystring(request, **overrides) -> str:
    params = request.GET.copy()
    params.pop("page", None)
    for key, value in overrides.items():
        params[key] = value
    return params.urlencode()


# --- the banks -------------------------------------------------------------------------------------------


@staff_with_school
def index(request):
    counts = selectors.bank_counts(request.user)
    banks = [
        {"kind": bank, "counts": bank.own_label % counts[name], "word_lists": bank.on_word_lists}
        for name, bank in KINDS.items()
    ]
    context = {"counts": counts, "banks": banks}
    return render(request, "questions/index.html", context)


@staff_with_school
def bank(request, kind: str):
    form = _filter_form(request, kind)
    items = selectors.bank_items(kind, request.user, form.filters())
    page = Paginator(items, PAGE_SIZE).get_page(request.GET.get("page"))
    can_edit = _editable_checker(request.user)
    rows = [{"item": item, "editable": can_edit(item)} for item in page.object_list]
    context = {
        "kind": kind,
        "info": bank_kind(kind),
        "form": form,
        "page": page,
        "rows": rows,
        "query": _querystring(request),
        "can_write": not bank_kind(kind).on_word_lists or bool(selectors.editable_word_lists(request.user)),
    }
    return render(request, "questions/bank.html", context)


@staff_with_school
def item_detail(request, kind: str, pk: int):
    item = _item_or_404(request, kind, pk)
    context = {
        "kind": kind,
        "info": bank_kind(kind),
        "item": item,
        "editable": selectors.can_edit_item(request.user, item),
    }
    return render(request, "questions/item_detail.html", context)


def _item_form(request, kind: str, *, data=None, initial=None, editing=False):
    bank = bank_kind(kind)
    extra = bank.form_kwargs(request.user, editing=editing)
    if bank.on_word_lists:
        extra["word_lists"] = selectors.editable_word_lists(request.user)
    return bank.form(data, initial=initial, **extra)


def _form_context(request, kind, form, item=None):
    bank = bank_kind(kind)
    context = {"kind": kind, "info": bank, "form": form, "item": item}
    return context | bank.form_context(selectors.visible_items(kind, request.user))


@staff_with_school
def item_create(request, kind: str):
    initial = {}
    if bank_kind(kind).on_word_lists:
        if not selectors.editable_word_lists(request.user):
            messages.info(request, _("Concepts of your own go on a word list. Create one first."))
            return redirect("questions:word_lists")
        initial["word_list"] = request.GET.get("list")
    form = _item_form(request, kind, data=request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            item = services.item_create(
                kind=kind,
                school=request.bank_school,
                author=request.user,
                data=form.to_data(),
                word_list=form.cleaned_data.get("word_list"),
            )
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect("questions:item_detail", kind=kind, pk=item.pk)
    status = 400 if form.errors else 200
    return render(request, "questions/item_form.html", _form_context(request, kind, form), status=status)


@staff_with_school
def item_edit(request, kind: str, pk: int):
    item = _editable_item(request, kind, pk)
    initial = bank_kind(kind).form.initial_from(item)
    form = _item_form(request, kind, data=request.POST or None, initial=initial, editing=True)
    if request.method == "POST" and form.is_valid():
        try:
            services.item_update(
                item=item, by=request.user, data=form.to_data(), word_list=form.cleaned_data.get("word_list")
            )
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect("questions:item_detail", kind=kind, pk=item.pk)
    status = 400 if form.errors else 200
    return render(
        request, "questions/item_form.html", _form_context(request, kind, form, item), status=status
    )


@staff_with_school
def item_delete(request, kind: str, pk: int):
    item = _editable_item(request, kind, pk)
    if request.method == "POST":
        services.item_delete(item=item, by=request.user)
        messages.success(request, _("Deleted."))
        return redirect("questions:bank", kind=kind)
    context = {"kind": kind, "info": bank_kind(kind), "item": item, "cancel": reverse_item(kind, item)}
    return render(request, "questions/confirm_delete.html", context)


def reverse_item(kind: str, item) -> str:
    return reverse("questions:item_detail", kwargs={"kind": kind, "pk": item.pk})


# --- import and export -----------------------------------------------------------------------------------


@staff_with_school
def import_items(request, kind: str):
    """Step 1: upload and preview (errors per row). Step 2: confirm, and everything is imported or nothing."""
    session_key = f"{IMPORT_SESSION_KEY}:{kind}"
    bank = bank_kind(kind)
    word_lists = selectors.editable_word_lists(request.user) if bank.on_word_lists else []
    lists_by_pk = {wl.pk: wl for wl in word_lists}
    preview, file_error = None, None

    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.get(session_key)
        if not stored:
            messages.error(request, _("The preview has expired. Upload the file again."))
            return redirect("questions:import", kind=kind)
        try:
            preview = services.import_preview(
                kind=kind,
                school=request.bank_school,
                user=request.user,
                data=stored["text"].encode("utf-8"),
                filename=stored["filename"],
                word_list=lists_by_pk.get(stored.get("word_list")),
                new_list_name=stored.get("new_list_name", ""),
            )
            result = services.import_apply(preview=preview, school=request.bank_school, by=request.user)
        except BankFileError as error:
            file_error = str(error)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            del request.session[session_key]
            messages.success(
                request,
                _("Import finished: %(created)d new, %(updated)d updated, %(unchanged)d unchanged.")
                % {"created": result.created, "updated": result.updated, "unchanged": result.unchanged},
            )
            if result.word_list is not None:
                return redirect("questions:word_list_detail", pk=result.word_list.pk)
            return redirect("questions:bank", kind=kind)
        form = ImportForm(kind=bank, word_lists=word_lists)
    else:
        initial = {"word_list": request.GET.get("list")} if bank.on_word_lists else None
        form = ImportForm(
            request.POST or None, request.FILES or None, kind=bank, word_lists=word_lists, initial=initial
        )
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            data = upload.read()
            word_list = lists_by_pk.get(form.cleaned_data.get("word_list"))
            new_list_name = form.cleaned_data.get("new_list_name", "") if word_list is None else ""
            try:
                preview = services.import_preview(
                    kind=kind,
                    school=request.bank_school,
                    user=request.user,
                    data=data,
                    filename=upload.name,
                    word_list=word_list,
                    new_list_name=new_list_name,
                )
            except BankFileError as error:
                file_error = str(error)
            else:
                if preview.ok:
                    request.session[session_key] = {
                        "text": data.decode("utf-8-sig"),
                        "filename": upload.name[:200],
                        "word_list": word_list.pk if word_list else None,
                        "new_list_name": new_list_name,
                    }
                else:
                    request.session.pop(session_key, None)
    context = {
        "kind": kind,
        "info": bank,
        "form": form,
        "preview": preview,
        "file_error": file_error,
        "columns": ", ".join(bank.csv_columns),
    }
    status = 400 if file_error or (preview and not preview.ok) or form.errors else 200
    return render(request, "questions/import.html", context, status=status)


@staff_with_school
def export_items(request, kind: str, fmt: str):
    form = _filter_form(request, kind)
    items = [item.to_engine_dict() for item in selectors.bank_items(kind, request.user, form.filters())]
    if fmt == "json":
        response = HttpResponse(to_json(items), content_type="application/json; charset=utf-8")
    else:
        response = HttpResponse(to_csv(kind, items), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="classplay-{kind}.{fmt}"'
    return response


# --- word lists ------------------------------------------------------------------------------------------


def _word_list_or_404(request, pk: int) -> WordList:
    word_list = selectors.visible_word_lists(request.user).filter(pk=pk).first()
    if word_list is None:
        raise Http404
    return word_list


@staff_with_school
def word_lists(request):
    form = WordListForm(request.POST or None)
    words_form = AddWordsForm(request.POST or None, use_required_attribute=False)
    words_form.fields["words"].required = False
    if request.method == "POST" and form.is_valid() and words_form.is_valid():
        try:
            word_list = services.word_list_create(
                school=request.bank_school, author=request.user, name=form.cleaned_data["name"]
            )
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            if words_form.cleaned_data["words"]:
                _add_words(request, word_list, words_form)
            messages.success(request, _("List “%(name)s” created.") % {"name": word_list.name})
            return redirect("questions:word_list_detail", pk=word_list.pk)
    can_edit = {wl.pk for wl in selectors.editable_word_lists(request.user)}
    lists = [{"list": wl, "editable": wl.pk in can_edit} for wl in selectors.visible_word_lists(request.user)]
    context = {
        "form": form,
        "words_form": words_form,
        "lists": lists,
        "list_kind": word_list_kind(),
        "import_url": reverse("questions:import", args=[word_list_kind().name]),
        "vocabulary_lists": selectors.visible_vocabulary_lists(request.user),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "questions/word_lists.html", context, status=status)


def _add_words(request, word_list: WordList, form: AddWordsForm) -> None:
    result = services.word_list_add_words(
        word_list=word_list,
        by=request.user,
        texts=form.words_list(),
        difficulty=form.cleaned_data["difficulty"],
        theme=form.cleaned_data["theme"],
    )
    if result.added:
        messages.success(request, _("%(n)d word(s) added.") % {"n": len(result.added)})
    if result.skipped:
        messages.info(
            request, _("Already on the list: %(words)s.") % {"words": ", ".join(result.skipped[:20])}
        )
    for text, why in result.refused[:20]:
        messages.error(request, _("Not added: %(word)s (%(why)s).") % {"word": text, "why": why})


@staff_with_school
def word_list_detail(request, pk: int):
    word_list = _word_list_or_404(request, pk)
    editable = selectors.can_edit_word_list(request.user, word_list)
    add_form = AddWordsForm(prefix="add")
    rename_form = WordListForm(prefix="rename", initial={"name": word_list.name})
    if request.method == "POST":
        if not editable:
            raise PermissionDenied
        if "add-words" in request.POST:
            add_form = AddWordsForm(request.POST, prefix="add")
            if add_form.is_valid():
                _add_words(request, word_list, add_form)
                return redirect("questions:word_list_detail", pk=word_list.pk)
        elif "rename-name" in request.POST:
            rename_form = WordListForm(request.POST, prefix="rename")
            if rename_form.is_valid():
                try:
                    services.word_list_rename(
                        word_list=word_list, by=request.user, **rename_form.cleaned_data
                    )
                except ValidationError as error:
                    _apply_validation_error(rename_form, error)
                else:
                    messages.success(request, _("List renamed."))
                    return redirect("questions:word_list_detail", pk=word_list.pk)
    context = {
        "word_list": word_list,
        "words": word_list.concepts.order_by("position", "id"),
        "list_kind": word_list_kind().name,
        "editable": editable,
        "add_form": add_form,
        "rename_form": rename_form,
        "export_query": f"scope=own&word_list={word_list.pk}",
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "questions/word_list_detail.html", context, status=status)


@staff_with_school
def word_list_delete(request, pk: int):
    word_list = _word_list_or_404(request, pk)
    if not selectors.can_edit_word_list(request.user, word_list):
        raise PermissionDenied
    if request.method == "POST":
        services.word_list_delete(word_list=word_list, by=request.user)
        messages.success(request, _("List “%(name)s” deleted.") % {"name": word_list.name})
        return redirect("questions:word_lists")
    context = {
        "word_list": word_list,
        "item": word_list,
        "cancel": reverse("questions:word_list_detail", args=[word_list.pk]),
    }
    return render(request, "questions/confirm_delete.html", context)


# --- Word Up vocabulary lists ----------------------------------------------------------------------------


def _vocabulary_or_404(request, pk: int) -> VocabularyList:
    vocabulary = selectors.visible_vocabulary_lists(request.user).filter(pk=pk).first()
    if vocabulary is None:
        raise Http404
    return vocabulary


def _vocabulary_preview(data: bytes, separator: str) -> dict:
    """The parsed rows and, when none has a problem, what Word Up builds from each word."""
    rows = parse_vocabulary(data, separator=separator)
    problems = [row for row in rows if row.problems]
    built = [] if problems else build_questions([row.entry() for row in rows], id_prefix="preview")
    return {
        "rows": rows,
        "problem_rows": problems,
        "words": [
            {"row": row, "word": word, "kinds": [(c, c in word.categories) for c in WORDUP_CATEGORIES]}
            for row, word in zip(rows, built, strict=False)
        ],
        "unused": [word for word in built if not word.used],
        "question_count": sum(len(word.questions) for word in built),
        "ok": bool(built) and any(word.used for word in built),
    }


@staff_with_school
def vocabulary_import(request):
    """Step 1: paste or upload, and see what each word becomes. Step 2: confirm; a list with a bad row
    is refused whole, as the bank import is."""
    replacing = None
    if request.GET.get("replace"):
        replacing = _vocabulary_or_404(
            request, int(request.GET["replace"]) if request.GET["replace"].isdigit() else 0
        )
        if not selectors.can_edit_vocabulary_list(request.user, replacing):
            raise PermissionDenied
    preview, file_error = None, None
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.get(VOCABULARY_SESSION_KEY)
        if not stored:
            messages.error(request, _("The preview has expired. Paste the list again."))
            return redirect(request.get_full_path())
        try:
            rows = parse_vocabulary(stored["text"].encode("utf-8"), separator=stored["separator"])
            vocabulary = services.vocabulary_list_save(
                school=request.bank_school,
                author=request.user,
                name=stored["name"],
                entries=[row.entry() for row in rows if not row.problems],
                replacing=replacing,
            )
        except (BankFileError, ValidationError) as error:
            messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
            return redirect(request.get_full_path())
        del request.session[VOCABULARY_SESSION_KEY]
        messages.success(request, _("Vocabulary list “%(name)s” saved.") % {"name": vocabulary.name})
        return redirect("questions:vocabulary_detail", pk=vocabulary.pk)
    initial = {"name": replacing.name} if replacing else None
    form = VocabularyImportForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.list_bytes()
        try:
            preview = _vocabulary_preview(data, form.cleaned_data["separator"])
        except BankFileError as error:
            file_error = str(error)
        else:
            if preview["ok"] and not preview["problem_rows"]:
                request.session[VOCABULARY_SESSION_KEY] = {
                    "text": data.decode("utf-8-sig"),
                    "separator": form.cleaned_data["separator"],
                    "name": form.cleaned_data["name"],
                }
            else:
                request.session.pop(VOCABULARY_SESSION_KEY, None)
    context = {"form": form, "preview": preview, "file_error": file_error, "replacing": replacing}
    status = 400 if file_error or form.errors or (preview and not preview["ok"]) else 200
    return render(request, "questions/vocabulary_import.html", context, status=status)


@staff_with_school
def vocabulary_detail(request, pk: int):
    vocabulary = _vocabulary_or_404(request, pk)
    built = build_questions(vocabulary.entries, id_prefix=vocabulary.id_prefix)
    context = {
        "vocabulary": vocabulary,
        "editable": selectors.can_edit_vocabulary_list(request.user, vocabulary),
        "words": [
            {"entry": entry, "word": word, "kinds": [(c, c in word.categories) for c in WORDUP_CATEGORIES]}
            for entry, word in zip(vocabulary.entries, built, strict=True)
        ],
        "question_count": sum(len(word.questions) for word in built),
    }
    return render(request, "questions/vocabulary_detail.html", context)


@staff_with_school
def vocabulary_export(request, pk: int, fmt: str):
    """The list as it came: Quizlet's tab-separated text (``txt``) or a CSV file."""
    vocabulary = _vocabulary_or_404(request, pk)
    separator = "tab" if fmt == "txt" else "comma"
    content_type = "text/plain" if fmt == "txt" else "text/csv"
    response = HttpResponse(
        export_vocabulary(vocabulary.entries, separator=separator),
        content_type=f"{content_type}; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="classplay-vocabulary-{vocabulary.pk}.{fmt}"'
    return response


@staff_with_school
def vocabulary_delete(request, pk: int):
    vocabulary = _vocabulary_or_404(request, pk)
    if not selectors.can_edit_vocabulary_list(request.user, vocabulary):
        raise PermissionDenied
    if request.method == "POST":
        services.vocabulary_list_delete(vocabulary=vocabulary, by=request.user)
        messages.success(request, _("List “%(name)s” deleted.") % {"name": vocabulary.name})
        return redirect("questions:word_lists")
    context = {
        "word_list": vocabulary,
        "item": vocabulary,
        "cancel": reverse("questions:vocabulary_detail", args=[vocabulary.pk]),
    }
    return render(request, "questions/confirm_delete.html", context)


@staff_with_school
def import_template(request, kind: str):
    """A CSV file with the bank's columns and one filled-in example row (a shipped item) to copy."""
    example = bank_kind(kind).example_items().order_by("position", "id").first()
    items = [example.to_engine_dict()] if example else []
    response = HttpResponse(to_csv(kind, items), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="classplay-{kind}-template.csv"'
    return response
