"""The reports' side of what the live runtime tells (``games.signals``): store the learning facts it
derives, and rebuild the reports once a session has wrapped up. Connected in ``ReportsConfig.ready``."""

from __future__ import annotations

from django.dispatch import receiver

from games import signals

from . import services


@receiver(signals.facts_derived, dispatch_uid="reports.facts_derived")
def store_facts(sender, *, tables, **kwargs) -> int:
    """Store each entry's facts, leaving out those of students whose data was erased after the entry
    (one look-up for the whole batch, from its earliest entry's time)."""
    erased = services.facts_erased_since(min(entries[0][0].at for _table, entries in tables))
    return services.facts_record_many(tables, erased=erased)


@receiver(signals.refusal_fact, dispatch_uid="reports.refusal_fact")
def store_refusal_fact(sender, *, table, fact, **kwargs) -> None:
    services.facts_record_refusal(table=table, fact=fact)


@receiver(signals.session_wrapped_up, dispatch_uid="reports.session_wrapped_up")
def rebuild_after_session(sender, *, session_id, **kwargs) -> None:
    services.build_after_session(session_id)
