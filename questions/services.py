"""Every write to the question banks goes through here: a school's own items, word lists, imports, the
loader of the shipped banks, and the record of which Line Up! questions a class has been shown."""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Model
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms.models import Classroom, School, User

from . import selectors
from .formats import BankFileError, parse_upload
from .kinds import KINDS, kind_of, rotated_kind, word_list_kind
from .kinds import kind as bank_kind
from .kinds.base import DATA_DIR, BankKind
from .models import ItemReview, QuestionUse, VocabularyList, WordList
from .validation import clean_text

IMPORT_MAX_BYTES = 2_000_000  # settings.QUESTION_IMPORT_MAX_BYTES overrides
IMPORT_MAX_ROWS = 2000  # settings.QUESTION_IMPORT_MAX_ROWS overrides
WORD_LIST_NAME_MAX_LENGTH = 60
WORDS_PER_PASTE = 300

__all__ = [
    "BankFileError",
    "ImportPreview",
    "ImportResult",
    "ImportRow",
    "import_apply",
    "import_preview",
    "item_create",
    "item_delete",
    "item_update",
    "lineup_editions",
    "questions_mark_used",
    "shipped_banks_load",
    "vocabulary_list_delete",
    "vocabulary_list_save",
    "word_list_add_words",
    "word_list_create",
    "word_list_delete",
    "word_list_rename",
]


# --- model fields from a cleaned item --------------------------------------------------------------------


def model_fields(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The model's field values for an item dict (the engine shape), its id left out."""
    return bank_kind(kind).model_fields(data)


def _clean_or_raise(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    cleaned, problems = bank_kind(kind).clean(data)
    if problems:
        by_field: dict[str, list[str]] = defaultdict(list)
        for problem in problems:
            by_field[problem.field or "__all__"].append(problem.message)
        raise ValidationError(dict(by_field))
    return cleaned


def new_key(kind: str, school: School) -> str:
    while True:
        key = f"{bank_kind(kind).key_prefix}-{secrets.token_hex(4)}"
        if not selectors.school_items(kind, school).filter(key=key).exists():
            return key


def _key_taken(kind: str, school_id: int, key: str, *, exclude_pk: int | None = None) -> str | None:
    """Why ``key`` cannot be used by ``school_id``'s item (None if it can)."""
    model = bank_kind(kind).model
    if model.objects.filter(school__isnull=True, key=key).exists():
        return _("%(id)s is the id of a shipped item: choose another id.") % {"id": key}
    if model.objects.filter(school_id=school_id, key=key).exclude(pk=exclude_pk).exists():
        return _("Your school already has an item with the id %(id)s.") % {"id": key}
    return None


def _next_position(kind: str, school_id: int, data: dict[str, Any], word_list: WordList | None) -> int:
    bank = bank_kind(kind)
    items = bank.model.objects.filter(
        school_id=school_id, **{name: data[name] for name in bank.position_group}
    )
    if bank.on_word_lists:
        items = items.filter(word_list=word_list)
    return (items.aggregate(top=Max("position"))["top"] or 0) + 1


# --- a school's own items --------------------------------------------------------------------------------


@transaction.atomic
def item_create(
    *, kind: str, school: School, author: User, data: dict[str, Any], word_list: WordList | None = None
) -> Model:
    """A new item of ``school``'s own. ``data`` is the engine shape; a blank ``id`` gets a new one.
    Items of a kind kept on word lists go on ``word_list`` (one of ``school``'s the author may change)."""
    data = dict(data)
    if not str(data.get("id") or "").strip():
        data["id"] = new_key(kind, school)
    cleaned = _clean_or_raise(kind, data)
    taken = _key_taken(kind, school.pk, cleaned["id"])
    if taken:
        raise ValidationError({"id": [taken]})
    extra: dict[str, Any] = {}
    bank = bank_kind(kind)
    if bank.on_word_lists:
        if word_list is None or word_list.school_id != school.pk:
            raise ValidationError({"word_list": [_("Choose one of your school's word lists.")]})
        if not selectors.can_edit_word_list(author, word_list):
            raise PermissionDenied
        extra["word_list"] = word_list
    item = bank.model(
        key=cleaned["id"],
        school=school,
        author=author,
        position=_next_position(kind, school.pk, cleaned, word_list),
        **model_fields(kind, cleaned),
        **extra,
    )
    _save_or_clash(item)
    if word_list is not None:
        WordList.objects.filter(pk=word_list.pk).update(updated_at=timezone.now())
    return item


@transaction.atomic
def item_update(*, item: Model, by: User, data: dict[str, Any], word_list: WordList | None = None) -> Model:
    """Change an item of a school's own (its author or the school's admins only). An item kept on a word
    list moves to ``word_list`` if given (another list of the school's that ``by`` may change)."""
    if not selectors.can_edit_item(by, item):
        raise PermissionDenied
    bank = kind_of(item)
    kind = bank.name
    if word_list is not None and bank.on_word_lists and word_list.pk != item.word_list_id:
        if word_list.school_id != item.school_id or not selectors.can_edit_word_list(by, word_list):
            raise PermissionDenied
        item.word_list = word_list
        item.position = _next_position(kind, item.school_id, {}, word_list)
    data = {**dict(data), "id": str(data.get("id") or item.key).strip()}
    cleaned = _clean_or_raise(kind, data)
    taken = _key_taken(kind, item.school_id, cleaned["id"], exclude_pk=item.pk)
    if taken:
        raise ValidationError({"id": [taken]})
    fields = model_fields(kind, cleaned)
    if _changes_group(bank, item, fields):
        item.position = _next_position(kind, item.school_id, cleaned, None)
    item.key = cleaned["id"]
    for name, value in fields.items():
        setattr(item, name, value)
    _save_or_clash(item)
    return item


def _save_or_clash(item: Model) -> None:
    """Save; an id taken meanwhile by a colleague (the unique constraint) is a form error, not a crash."""
    try:
        with transaction.atomic():
            item.save()
    except IntegrityError:
        raise ValidationError(
            {"id": [_("Your school already has an item with the id %(id)s.") % {"id": item.key}]}
        ) from None


@transaction.atomic
def item_delete(*, item: Model, by: User) -> None:
    if not selectors.can_edit_item(by, item):
        raise PermissionDenied
    item.delete()


def _changes_group(bank: BankKind, item: Model, fields: dict[str, Any]) -> bool:
    """Whether the item moves to another group of its bank (a Word Up question's level or category):
    it then goes to the end of its new group."""
    return any(fields[name] != getattr(item, name) for name in bank.position_group)


# --- word lists --------------------------------------------------------------------------------------------


def _list_name(name: str) -> str:
    name = clean_text(name or "")
    if not name:
        raise ValidationError({"name": [_("Give the list a name.")]})
    if len(name) > WORD_LIST_NAME_MAX_LENGTH:
        raise ValidationError(
            {"name": [_("The name is longer than %(max)d characters.") % {"max": WORD_LIST_NAME_MAX_LENGTH}]}
        )
    return name


def word_list_create(*, school: School, author: User, name: str) -> WordList:
    name = _list_name(name)
    if WordList.objects.filter(school=school, name__iexact=name).exists():
        raise ValidationError(
            {"name": [_("Your school already has a list called “%(name)s”.") % {"name": name}]}
        )
    try:
        with transaction.atomic():
            return WordList.objects.create(school=school, author=author, name=name)
    except IntegrityError:
        raise ValidationError(
            {"name": [_("Your school already has a list called “%(name)s”.") % {"name": name}]}
        ) from None


def word_list_rename(*, word_list: WordList, by: User, name: str) -> WordList:
    if not selectors.can_edit_word_list(by, word_list):
        raise PermissionDenied
    name = _list_name(name)
    if (
        WordList.objects.filter(school_id=word_list.school_id, name__iexact=name)
        .exclude(pk=word_list.pk)
        .exists()
    ):
        raise ValidationError(
            {"name": [_("Your school already has a list called “%(name)s”.") % {"name": name}]}
        )
    word_list.name = name
    word_list.save(update_fields=["name", "updated_at"])
    return word_list


def word_list_delete(*, word_list: WordList, by: User) -> None:
    """The list and its words."""
    if not selectors.can_edit_word_list(by, word_list):
        raise PermissionDenied
    word_list.delete()


# --- Word Up vocabulary lists ---------------------------------------------------------------------------


@transaction.atomic
def vocabulary_list_save(
    *,
    school: School,
    author: User,
    name: str,
    entries: list[dict[str, str]],
    replacing: VocabularyList | None = None,
) -> VocabularyList:
    """A new list, or ``replacing``'s words and name swapped for these (a re-import). ``entries``
    come from :func:`questions.vocabulary.parse_vocabulary` rows without problems."""
    if replacing is not None and not selectors.can_edit_vocabulary_list(author, replacing):
        raise PermissionDenied
    name = _list_name(name)
    clash = VocabularyList.objects.filter(school=school, name__iexact=name)
    if replacing is not None:
        clash = clash.exclude(pk=replacing.pk)
    if clash.exists():
        raise ValidationError(
            {"name": [_("Your school already has a list called “%(name)s”.") % {"name": name}]}
        )
    if not entries:
        raise ValidationError(_("The list holds no words."))
    vocabulary = replacing or VocabularyList(school=school, author=author)
    vocabulary.name, vocabulary.entries = name, entries
    vocabulary.save()
    return vocabulary


def vocabulary_list_delete(*, vocabulary: VocabularyList, by: User) -> None:
    if not selectors.can_edit_vocabulary_list(by, vocabulary):
        raise PermissionDenied
    vocabulary.delete()


@dataclass
class AddWordsResult:
    added: list[Model] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # already on the list
    refused: list[tuple[str, str]] = field(default_factory=list)  # (text, why)


@transaction.atomic
def word_list_add_words(
    *, word_list: WordList, by: User, texts: Iterable[str], difficulty: str, theme: str = ""
) -> AddWordsResult:
    """Add words (this week's vocabulary) to a list, one concept each. Words already on the list are
    skipped; words that break the concept rules are refused with the reason; the rest are added."""
    if not selectors.can_edit_word_list(by, word_list):
        raise PermissionDenied
    result = AddWordsResult()
    kind = word_list_kind()
    present = {text.casefold() for text in word_list.concepts.values_list("text", flat=True)}
    for text in list(texts)[:WORDS_PER_PASTE]:
        text = clean_text(text)
        if not text:
            continue
        if text.casefold() in present:
            result.skipped.append(text)
            continue
        data = {
            "id": new_key(kind.name, word_list.school),
            "text": text,
            "difficulty": difficulty,
            "theme": theme,
        }
        cleaned, problems = kind.clean(data)
        if problems:
            result.refused.append((text[:60], "; ".join(p.message for p in problems)))
            continue
        result.added.append(
            kind.model.objects.create(
                key=cleaned["id"],
                school_id=word_list.school_id,
                author=by,
                word_list=word_list,
                position=_next_position(kind.name, word_list.school_id, cleaned, word_list),
                **kind.model_fields(cleaned),
            )
        )
        present.add(text.casefold())
    if result.added:
        WordList.objects.filter(pk=word_list.pk).update(updated_at=timezone.now())
    return result


# --- import ----------------------------------------------------------------------------------------------

NEW, UPDATE, UNCHANGED, SHIPPED = "new", "update", "unchanged", "shipped"


@dataclass
class ImportRow:
    line: int
    key: str
    label: str
    action: str = ""
    errors: list[str] = field(default_factory=list)
    data: dict[str, Any] | None = None


@dataclass
class ImportPreview:
    kind: str
    format: str
    rows: list[ImportRow]
    word_list: WordList | None = None
    new_list_name: str = ""

    @property
    def error_count(self) -> int:
        return sum(1 for row in self.rows if row.errors)

    @property
    def ok(self) -> bool:
        return self.error_count == 0

    def count(self, action: str) -> int:
        return sum(1 for row in self.rows if not row.errors and row.action == action)


@dataclass
class ImportResult:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    shipped: int = 0
    word_list: WordList | None = None


def import_preview(
    *,
    kind: str,
    school: School,
    user: User,
    data: bytes,
    filename: str = "",
    word_list: WordList | None = None,
    new_list_name: str = "",
) -> ImportPreview:
    """Every row of an uploaded file, checked, with what importing it would do; writes nothing.

    Raises :class:`BankFileError` when the file as a whole is unusable. A row's ``action`` is ``new``,
    ``update`` (an item of the school's with the same id, changed), ``unchanged`` or ``shipped`` (a
    shipped item, identical: nothing to do). Items of a kind kept on word lists go on ``word_list`` or a
    new list named ``new_list_name`` (an existing list of that name is used if the user may change it).
    """
    bank = bank_kind(kind)
    if bank.on_word_lists:
        word_list, new_list_name = _import_target(school, user, word_list, new_list_name)
    fmt, parsed = parse_upload(
        kind,
        data,
        filename=filename,
        max_bytes=getattr(settings, "QUESTION_IMPORT_MAX_BYTES", IMPORT_MAX_BYTES),
        max_rows=getattr(settings, "QUESTION_IMPORT_MAX_ROWS", IMPORT_MAX_ROWS),
    )
    rows: list[ImportRow] = []
    for entry in parsed:
        cleaned, problems = bank.clean(entry.raw)
        raw_key = entry.raw.get("id") if isinstance(entry.raw, dict) else None
        key = (cleaned or {}).get("id") or (raw_key.strip()[:64] if isinstance(raw_key, str) else "")
        rows.append(
            ImportRow(
                line=entry.line,
                key=key,
                label=bank.label(cleaned or entry.raw),
                errors=[*entry.problems, *(problem.message for problem in problems)],
                data=cleaned,
            )
        )
    _flag_duplicates(rows)
    _classify(kind, school, user, rows, word_list)
    return ImportPreview(kind=kind, format=fmt, rows=rows, word_list=word_list, new_list_name=new_list_name)


def _import_target(
    school: School, user: User, word_list: WordList | None, new_list_name: str
) -> tuple[WordList | None, str]:
    """The list imported items go on: ``(word_list, "")``, or ``(None, name)`` for a new list."""
    if word_list is not None:
        if word_list.school_id != school.pk or not selectors.can_edit_word_list(user, word_list):
            raise BankFileError(_("You cannot change that word list."))
        return word_list, ""
    try:
        name = _list_name(new_list_name)
    except ValidationError:
        raise BankFileError(_("Choose one of your word lists, or name a new one.")) from None
    existing = WordList.objects.filter(school=school, name__iexact=name).first()
    if existing is not None:
        if not selectors.can_edit_word_list(user, existing):
            raise BankFileError(
                _("The list “%(name)s” is someone else's: choose another name.") % {"name": name}
            )
        return existing, ""
    return None, name


def _flag_duplicates(rows: list[ImportRow]) -> None:
    first_line: dict[str, int] = {}
    for row in rows:
        if not row.key:
            continue
        if row.key in first_line:
            row.errors.append(
                _("id %(id)s is also on line %(line)d") % {"id": row.key, "line": first_line[row.key]}
            )
        else:
            first_line[row.key] = row.line


def _classify(
    kind: str, school: School, user: User, rows: list[ImportRow], word_list: WordList | None
) -> None:
    bank = bank_kind(kind)
    model = bank.model
    keys = [row.key for row in rows if row.key and not row.errors]
    # A shipped id may name one question in several languages (Line Up!'s editions): any of them matches.
    shipped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in model.objects.filter(school__isnull=True, key__in=keys):
        shipped[item.key].append(item.to_engine_dict())
    own_items = model.objects.filter(school=school, key__in=keys).select_related("author")
    if bank.on_word_lists:
        own_items = own_items.select_related("word_list")
    own = {item.key: item for item in own_items}
    for row in rows:
        if row.errors:
            continue
        if row.key in shipped:
            if row.data in shipped[row.key]:
                row.action = SHIPPED
            else:
                row.errors.append(
                    _("%(id)s is the id of a shipped item: give your version another id.") % {"id": row.key}
                )
            continue
        item = own.get(row.key)
        if item is None:
            row.action = NEW
            continue
        if bank.on_word_lists and (word_list is None or item.word_list_id != word_list.pk):
            row.errors.append(
                _("%(id)s is already on your school's list “%(list)s”.")
                % {"id": row.key, "list": item.word_list}
            )
        elif item.to_engine_dict() == row.data:
            row.action = UNCHANGED
        elif not selectors.can_edit_item(user, item):
            row.errors.append(
                _("%(id)s belongs to %(author)s: only they or a school admin can change it.")
                % {"id": row.key, "author": item.author or _("another teacher")}
            )
        else:
            row.action = UPDATE


def import_apply(*, preview: ImportPreview, school: School, by: User) -> ImportResult:
    """Import every row of a checked preview, or nothing: refuses a preview with any error, and rolls
    everything back if the bank changed under it meanwhile (a clash of ids)."""
    if not preview.ok:
        raise ValidationError(_("The file has errors: nothing was imported."))
    bank = bank_kind(preview.kind)
    model = bank.model
    result = ImportResult()
    try:
        with transaction.atomic():
            word_list = preview.word_list
            if bank.on_word_lists:
                if word_list is None:
                    word_list = word_list_create(school=school, author=by, name=preview.new_list_name)
                result.word_list = word_list
            existing = {
                item.key: item
                for item in model.objects.select_for_update().filter(
                    school=school, key__in=[row.key for row in preview.rows]
                )
            }
            importer = _Importer(bank, school, by, word_list, existing, result)
            for row in preview.rows:
                importer.import_row(row)
            if word_list is not None and (result.created or result.updated):
                WordList.objects.filter(pk=word_list.pk).update(updated_at=timezone.now())
    except (IntegrityError, KeyError):
        raise ValidationError(
            _("The bank changed while you were checking the file. Upload it again.")
        ) from None
    return result


@dataclass
class _Importer:
    """Imports a checked preview's rows one by one into a school's bank (inside the import's transaction)."""

    bank: BankKind
    school: School
    by: User
    word_list: WordList | None
    #: The school's items with the preview's ids, locked.
    existing: dict[str, Any]
    result: ImportResult
    #: The next free position in each group of the bank (see :func:`_take_position`).
    next_positions: dict[tuple, int] = field(default_factory=dict)

    def import_row(self, row: ImportRow) -> None:
        if row.action in (UNCHANGED, SHIPPED):
            setattr(self.result, row.action, getattr(self.result, row.action) + 1)
            return
        fields = self.bank.model_fields(row.data)
        if row.action == UPDATE:
            self._update(row, fields)
        else:
            self._create(row, fields)

    def _update(self, row: ImportRow, fields: dict[str, Any]) -> None:
        item = self.existing[row.key]
        if not selectors.can_edit_item(self.by, item):
            raise PermissionDenied
        if _changes_group(self.bank, item, fields):
            item.position = self._position(row)
        for name, value in fields.items():
            setattr(item, name, value)
        item.save()
        self.result.updated += 1

    def _create(self, row: ImportRow, fields: dict[str, Any]) -> None:
        if row.key in self.existing:
            raise IntegrityError(row.key)
        extra = {"word_list": self.word_list} if self.bank.on_word_lists else {}
        self.bank.model(
            key=row.key, school=self.school, author=self.by, position=self._position(row), **fields, **extra
        ).save()
        self.result.created += 1

    def _position(self, row: ImportRow) -> int:
        return _take_position(self.bank, self.school, row.data, self.word_list, self.next_positions)


def _take_position(
    bank: BankKind, school: School, data: dict[str, Any], word_list: WordList | None, cache: dict[tuple, int]
) -> int:
    group = tuple(data.get(name) for name in bank.position_group)
    if group not in cache:
        cache[group] = _next_position(bank.name, school.pk, data, word_list)
    position = cache[group]
    cache[group] = position + 1
    return position


# --- the shipped banks -----------------------------------------------------------------------------------


@dataclass
class LoadResult:
    created: int = 0
    updated: int = 0
    deleted: int = 0
    unchanged: int = 0


#: The languages of the shipped Line Up! bank: English, then each translation's folder.
lineup_editions = selectors.lineup_editions


def shipped_entries(
    kind: str, data_dir: Path = DATA_DIR, **language: str
) -> list[tuple[dict[str, Any], int]]:
    """``(item, position)`` for every shipped item of ``kind``, in bank order (the kind's own)."""
    return bank_kind(kind).shipped_entries(data_dir, **language)


def _identity(item: Model) -> tuple[str, str]:
    return item.key, getattr(item, "language", "")


@transaction.atomic
def shipped_banks_load(*, data_dir: Path | None = None) -> dict[str, LoadResult]:
    """Make the shipped items in the database match the files in ``data_dir`` (questions/data): new
    ones created, changed ones updated, ones no longer shipped deleted. Running it again changes nothing.
    An item is one per id and language in a bank kept in several (Line Up!'s editions)."""
    results = {}
    for kind, bank in KINDS.items():
        model = bank.model
        result = LoadResult()
        existing = {_identity(item): item for item in model.objects.filter(school__isnull=True)}
        to_create = []
        seen = set()
        for identity, data, position in bank.shipped_rows(data_dir):
            seen.add(identity)
            fields = bank.shipped_fields(identity, data)
            item = existing.get(identity)
            if item is None:
                item = model(key=data["id"], school=None, position=position, **fields)
                bank.prepare(item)
                to_create.append(item)
                continue
            if not bank.shipped_changed(item, data, position):
                result.unchanged += 1
                continue
            item.position = position
            for name, value in fields.items():
                setattr(item, name, value)
            item.save()
            result.updated += 1
        model.objects.bulk_create(to_create, batch_size=500)
        result.created = len(to_create)
        stale = [item.pk for identity, item in existing.items() if identity not in seen]
        if stale:
            model.objects.filter(pk__in=stale).delete()
        result.deleted = len(stale)
        results[kind] = result
    return results


# --- which Line Up! questions a class has seen ------------------------------------------------------------


@transaction.atomic
def questions_mark_used(classroom: Classroom, ids: Iterable[str], *, now: datetime | None = None) -> int:
    """Record that ``classroom`` was shown the Line Up! questions with these engine ids (``"id"`` of
    ``to_engine_dict()``); ids the class's school cannot see are ignored. Returns how many were recorded."""
    now = now or timezone.now()
    keys = {str(key) for key in ids}
    if not keys:
        return 0
    question_ids = list(
        rotated_kind().school_items(classroom.school_id).filter(key__in=keys).values_list("pk", flat=True)
    )
    seen = set(
        QuestionUse.objects.filter(classroom=classroom, question_id__in=question_ids).values_list(
            "question_id", flat=True
        )
    )
    QuestionUse.objects.filter(classroom=classroom, question_id__in=seen).update(
        last_used_at=now, times_used=F("times_used") + 1
    )
    QuestionUse.objects.bulk_create(
        [
            QuestionUse(classroom=classroom, question_id=pk, first_used_at=now, last_used_at=now)
            for pk in question_ids
            if pk not in seen
        ],
        ignore_conflicts=True,
    )
    return len(question_ids)


# --- reviews from the item analysis -----------------------------------------------------------------------


def item_review_set(
    *, school: School, kind: str, key: str, status: str | None, by: User
) -> ItemReview | None:
    """Flag or retire one of the school's bank questions, or (``status=None``) put it back as it was."""
    reviewable = kind in KINDS and KINDS[kind].reviewable
    if not reviewable or not selectors.school_items(kind, school).filter(key=key).exists():
        raise ValidationError(_("That question is not in your school's bank."))
    if status is None:
        ItemReview.objects.filter(school=school, kind=kind, key=key).delete()
        return None
    if status not in ItemReview.Status.values:
        raise ValidationError(_("Unknown review."))
    review, _created = ItemReview.objects.update_or_create(
        school=school, kind=kind, key=key, defaults={"status": status, "by": by}
    )
    return review
