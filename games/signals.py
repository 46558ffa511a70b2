"""What the live runtime tells the rest of the project, without importing it (the reports app listens).

Each signal has one receiver, in ``reports.receivers``; they run in the sender's transaction and thread.
"""

from django.dispatch import Signal

#: Learning facts derived from tables' log entries are ready to store. Argument: ``tables``, a list of
#: ``(table, entries)`` pairs: the GameTable and a list of ``(entry, facts)`` pairs in log order, never
#: empty. The receiver returns how many facts it offered; storing an entry's facts again must write nothing.
facts_derived = Signal()

#: A refused move that is itself a learning fact (e.g. a Line-it card that breaks the line). Arguments:
#: ``table`` and ``fact``.
refusal_fact = Signal()

#: A session ended and all its facts are stored (its wrap-up ran). Argument: ``session_id``.
session_wrapped_up = Signal()
