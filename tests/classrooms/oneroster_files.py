"""OneRoster 1.1 CSV exports shaped like a SIS's, built in memory for the tests."""

from __future__ import annotations

import csv
import io
import zipfile

from classrooms.oneroster import COLUMNS

ORG = "org-riverside"


def manifest(**modes: str) -> list[dict]:
    files = {
        "academicSessions": "bulk",
        "categories": "absent",
        "classes": "bulk",
        "classResources": "absent",
        "courses": "bulk",
        "courseResources": "absent",
        "demographics": "absent",
        "enrollments": "bulk",
        "lineItems": "absent",
        "orgs": "bulk",
        "resources": "absent",
        "results": "absent",
        "users": "bulk",
        **modes,
    }
    rows = [
        {"propertyName": "manifest.version", "value": "1.0"},
        {"propertyName": "oneroster.version", "value": "1.1"},
    ]
    rows += [{"propertyName": f"file.{name}", "value": mode} for name, mode in files.items()]
    rows += [
        {"propertyName": "source.systemName", "value": "Test SIS"},
        {"propertyName": "source.systemCode", "value": "TSIS"},
    ]
    return rows


def user(sourced_id, role, given, family, email="", grades="07", status="active", orgs=ORG) -> dict:
    return {
        "sourcedId": sourced_id,
        "status": status,
        "dateLastModified": "2026-09-01T08:00:00.000Z",
        "enabledUser": "true",
        "orgSourcedIds": orgs,
        "role": role,
        "username": email or sourced_id,
        "givenName": given,
        "familyName": family,
        "email": email,
        "grades": grades if role == "student" else "",
    }


def klass(sourced_id, title, code, course="course-eng7", status="active", school=ORG) -> dict:
    return {
        "sourcedId": sourced_id,
        "status": status,
        "dateLastModified": "2026-09-01T08:00:00.000Z",
        "title": title,
        "grades": "07",
        "courseSourcedId": course,
        "classCode": code,
        "classType": "scheduled",
        "location": "Room 12",
        "schoolSourcedId": school,
        "termSourcedIds": "term-2026-1",
        "subjects": "",
        "subjectCodes": "",
        "periods": "1",
    }


def enrol(sourced_id, class_id, user_id, role="student", status="active") -> dict:
    return {
        "sourcedId": sourced_id,
        "status": status,
        "dateLastModified": "2026-09-01T08:00:00.000Z",
        "classSourcedId": class_id,
        "schoolSourcedId": ORG,
        "userSourcedId": user_id,
        "role": role,
        "primary": "true" if role == "teacher" else "false",
        "beginDate": "2026-09-01",
        "endDate": "2027-07-15",
    }


def school_tables() -> dict[str, list[dict]]:
    """A small school: two classes, two teachers (one already a Classplay member), three students."""
    return {
        "manifest.csv": manifest(),
        "orgs.csv": [
            {"sourcedId": "org-district", "status": "active", "name": "River District", "type": "district"},
            {
                "sourcedId": ORG,
                "status": "active",
                "name": "Riverside Academy",
                "type": "school",
                "parentSourcedId": "org-district",
            },
        ],
        "academicSessions.csv": [
            {
                "sourcedId": "term-2026-1",
                "status": "active",
                "title": "Autumn 2026",
                "type": "term",
                "startDate": "2026-09-01",
                "endDate": "2026-12-18",
                "schoolYear": "2027",
            }
        ],
        "courses.csv": [
            {
                "sourcedId": "course-eng7",
                "status": "active",
                "title": "English 7",
                "subjects": "English",
                "orgSourcedId": ORG,
            },
            {
                "sourcedId": "course-mat7",
                "status": "active",
                "title": "Maths 7",
                "subjects": "Maths",
                "orgSourcedId": ORG,
            },
        ],
        "users.csv": [
            user("t-rivera", "teacher", "Maria", "Rivera", "rivera@riverside.example"),
            user("t-new", "teacher", "Noor", "Haddad", "haddad@riverside.example"),
            user("s-1001", "student", "Ava", "Moreno"),
            user("s-1002", "student", "Ben", "Kim"),
            user("s-1003", "student", "Chloé", "Dubois"),
        ],
        "classes.csv": [
            klass("c-7b-eng", "7B English", "7B-ENG"),
            klass("c-7d-mat", "7D Maths", "7D-MAT", course="course-mat7"),
        ],
        "enrollments.csv": [
            enrol("e-1", "c-7b-eng", "t-rivera", "teacher"),
            enrol("e-2", "c-7d-mat", "t-new", "teacher"),
            enrol("e-3", "c-7b-eng", "s-1001"),
            enrol("e-4", "c-7b-eng", "s-1002"),
            enrol("e-5", "c-7d-mat", "s-1002"),
            enrol("e-6", "c-7d-mat", "s-1003"),
        ],
    }


def csv_bytes(name: str, rows: list[dict], *, bom: bool = False) -> bytes:
    columns = ("propertyName", "value") if name == "manifest.csv" else COLUMNS[name]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\r\n", extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({column: row.get(column, "") for column in columns})
    return (("\ufeff" if bom else "") + buffer.getvalue()).encode("utf-8")


def zip_bytes(tables: dict[str, list[dict]] | None = None, *, raw: dict[str, bytes] | None = None) -> bytes:
    tables = school_tables() if tables is None else tables
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, rows in tables.items():
            archive.writestr(name, csv_bytes(name, rows, bom=name == "users.csv"))
        for name, data in (raw or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()
