"""Roster CSV: preview with an error per bad row, all-or-nothing import, idempotent re-import, export."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from classrooms.models import LevelChange, Student
from classrooms.roster import RosterFileError, parse_roster

pytestmark = pytest.mark.django_db

GOOD = (
    "sourcedId,givenName,familyName,grades,class,englishLevel,numeracyLevel\n"
    "s-001,Ava,Moreno,07,7B English,2,3\n"
    "s-002,  Ben  ,Kim,07,,4,\n"
    "s-003,Chloe,,07,7b english,,\n"
)


def parse(text, **kw):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_roster(
        data, classroom_name="7B English", max_bytes=kw.get("max_bytes", 100_000), max_rows=50
    )


def upload(client, classroom, content: bytes, name="roster.csv"):
    return client.post(
        reverse("roster_import", args=[classroom.pk]), {"file": SimpleUploadedFile(name, content)}
    )


def confirm(client, classroom):
    return client.post(reverse("roster_import", args=[classroom.pk]), {"confirm": "1"})


def test_a_good_file_parses_with_trimmed_names_and_levels():
    rows = parse(GOOD)
    assert [row.errors for row in rows] == [[], [], []]
    assert rows[1].given_name == "Ben"
    assert rows[0].levels == {"english_vocabulary": 2, "numeracy": 3}


def test_a_file_that_is_not_utf8_is_refused_with_the_reason():
    with pytest.raises(RosterFileError, match="not UTF-8"):
        parse("sourcedId,givenName\ns1,Zoë\n".encode("utf-16"))


def test_missing_columns_are_refused_by_name():
    with pytest.raises(RosterFileError, match="givenName"):
        parse("sourcedId,familyName\ns1,Kim\n")


def test_an_empty_file_and_a_header_only_file_are_refused():
    with pytest.raises(RosterFileError):
        parse("")
    with pytest.raises(RosterFileError, match="no students"):
        parse("sourcedId,givenName\n")


def test_a_file_too_large_is_refused():
    with pytest.raises(RosterFileError, match="too large"):
        parse(GOOD, max_bytes=20)


def test_duplicate_ids_are_flagged_on_the_later_row_with_the_first_line():
    rows = parse("sourcedId,givenName\ns1,Ava\ns2,Ben\nS1,Ava again\n")
    assert rows[2].errors == ["sourcedId S1 is also on line 2"]


def test_each_bad_row_gets_its_reason():
    text = (
        "sourcedId,givenName,class,englishLevel\n"
        ",Ava,,\n"
        "s2,,,\n"
        "s3,Cleo,8A Maths,\n"
        "s4,Dev,,7\n"
        f"s5,{'x' * 61},,\n"
        "bad id!,Eve,,\n"
    )
    errors = [row.errors for row in parse(text)]
    assert errors[0] == ["sourcedId is empty"]
    assert errors[1] == ["givenName is empty"]
    assert "belongs to class" in errors[2][0]
    assert errors[3] == ["englishLevel must be a level from 1 to 5"]
    assert "longer than 60" in errors[4][0]
    assert "sourcedId may only hold" in errors[5][0]


def test_a_quote_never_closed_is_refused_with_the_line_it_opens_on():
    text = (
        "sourcedId,givenName,familyName\n"
        "s-001,Ava,Moreno\n"
        's-002,"Ben,Kim\n'  # the quote opens here and nothing closes it
        "s-003,Chloe,Ng\n"
        "s-004,Dan,Ito\n"
    )
    with pytest.raises(RosterFileError, match=r"^Line 3 opens a quote \(\"\) that is never closed"):
        parse(text)
    with pytest.raises(RosterFileError, match="Line 2 opens"):  # Windows line ends, semicolons, no end
        parse('sourcedId;givenName\r\ns-001;"Ava\r\ns-002;Ben')


def test_a_quoted_name_over_two_lines_is_still_read():
    rows = parse('sourcedId,givenName,familyName\ns-001,"Ava \nMaria",Moreno\ns-002,"Ben ""B""",Kim\n')
    assert [(row.given_name, row.family_name) for row in rows] == [
        ("Ava Maria", "Moreno"),
        ('Ben "B"', "Kim"),
    ]


def test_semicolon_separated_files_with_a_bom_are_read():
    rows = parse("\ufeffsourcedId;givenName\ns1;Ava\n")
    assert rows[0].given_name == "Ava"


def test_preview_then_import_creates_students_with_levels(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    preview = upload(client, class_7b, GOOD.encode())
    assert preview.status_code == 200
    assert "3 students are ready to import" in preview.content.decode()
    assert Student.objects.count() == 0  # the preview writes nothing
    response = confirm(client, class_7b)
    assert response.status_code == 302
    assert class_7b.enrolments.count() == 3
    ava = Student.objects.get(external_id="s-001")
    assert ava.display_name == "Ava M."
    assert dict(ava.levels.values_list("skill", "level")) == {"english_vocabulary": 2, "numeracy": 3}
    assert LevelChange.objects.filter(student=ava, source="import").count() == 2


def test_a_file_with_any_bad_row_imports_nothing(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    page = upload(client, class_7b, (GOOD + "s-001,Dup,,,,,\n").encode()).content.decode()
    assert "1 row has an error" in page
    assert "Import all" not in page
    confirm(client, class_7b)
    assert Student.objects.count() == 0


def test_an_upload_with_a_quote_never_closed_imports_nothing(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    content = b'sourcedId,givenName\ns-001,Ava\ns-002,"Ben\ns-003,Chloe\n'
    assert "Line 3 opens a quote" in upload(client, class_7b, content).content.decode()
    confirm(client, class_7b)
    assert Student.objects.count() == 0


def test_a_wrong_encoding_upload_shows_the_reason_and_imports_nothing(client_of, ms_rivera, class_7b):
    page = upload(
        client_of(ms_rivera), class_7b, "sourcedId,givenName\ns1,Zoë\n".encode("cp1252")
    ).content.decode()
    assert "not UTF-8" in page
    assert Student.objects.count() == 0


def test_reimporting_the_same_file_changes_nothing(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    upload(client, class_7b, GOOD.encode())
    confirm(client, class_7b)
    before = list(Student.objects.order_by("pk").values())
    changes = LevelChange.objects.count()
    upload(client, class_7b, GOOD.encode())
    response = confirm(client, class_7b)
    assert response.status_code == 302
    assert list(Student.objects.order_by("pk").values()) == before
    assert LevelChange.objects.count() == changes
    assert class_7b.enrolments.count() == 3


def test_reimport_with_a_changed_name_updates_that_student_only(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    upload(client, class_7b, GOOD.encode())
    confirm(client, class_7b)
    upload(client, class_7b, GOOD.replace("Moreno", "Moreno-Diaz").encode())
    confirm(client, class_7b)
    assert Student.objects.count() == 3
    assert Student.objects.get(external_id="s-001").family_name == "Moreno-Diaz"


def test_confirm_without_a_preview_imports_nothing(client_of, ms_rivera, class_7b):
    response = confirm(client_of(ms_rivera), class_7b)
    assert response.status_code == 302
    assert Student.objects.count() == 0


def test_export_lists_the_roster_and_defuses_formulas(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    upload(client, class_7b, (GOOD + "s-004,=HYPERLINK(1),,,,,\n").encode())
    confirm(client, class_7b)
    body = client.get(reverse("classroom_export", args=[class_7b.pk])).content.decode()
    lines = body.strip().splitlines()
    assert lines[0] == "sourcedId,givenName,familyName,grades,class,englishLevel,numeracyLevel"
    assert "s-001,Ava,Moreno,07,7B English,2,3" in lines
    assert any(line.startswith("s-004,'=HYPERLINK(1)") for line in lines)


def test_an_export_imports_back_unchanged(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    upload(client, class_7b, GOOD.encode())
    confirm(client, class_7b)
    exported = client.get(reverse("classroom_export", args=[class_7b.pk])).content
    before = list(Student.objects.order_by("pk").values())
    upload(client, class_7b, exported)
    confirm(client, class_7b)
    assert list(Student.objects.order_by("pk").values()) == before
