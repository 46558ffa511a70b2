"""The integration's side of what the live runtime tells (``games.signals``): once a session has wrapped
up (every learning fact stored), its scores go to the LMS links that launched it; a homework attempt's
student's best score goes to the links to that homework."""

from __future__ import annotations

from django.dispatch import receiver

from games import signals

from . import tasks


@receiver(signals.session_wrapped_up, dispatch_uid="integrations.session_wrapped_up")
def post_scores_after_session(sender, *, session_id, **kwargs) -> None:
    tasks.queue_session_scores(session_id)
