"""A quote a CSV file opens and never closes: Python's csv reader takes such a file without a word and
reads the rest of it as one value. Every import that reads a teacher's CSV file (the roster, OneRoster,
the question banks, the vocabulary lists) refuses it with the line of the quote."""

from __future__ import annotations

import csv
import io
import re
from collections import deque

#: Read after a file when looking for a quote it never closes: private-use characters, which no export
#: writes.
END_MARK = "\ue000classplay-end\ue000"
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def unclosed_quote_line(
    text: str, dialect: type[csv.Dialect] | csv.Dialect = csv.excel, **reader_options: str
) -> int | None:
    """The line where a quoted value opens that the file never closes, else None (a stray quote turned a
    whole class into one student's name). A mark read after the file is a row of its own, unless a quote
    is still open, when it ends that value; counting the value's lines back from the mark finds the quote.
    ``dialect`` and ``reader_options`` are those the file is then read with."""
    rows = csv.reader(io.StringIO(f"{text}\n{END_MARK}", newline=""), dialect, **reader_options)
    try:
        last = next(iter(deque(rows, maxlen=1)), [])
    except csv.Error:
        return None  # the reading that follows says what is wrong
    if last == [END_MARK] or not last or not last[-1].endswith(END_MARK):
        return None
    mark_line = len(LINE_BREAK.findall(text)) + 2
    return mark_line - len(LINE_BREAK.findall(last[-1]))
