"""Panels another app adds to a session's results page: the progress reports add who needs help after
the session and how the class answered each multiple-choice question. The games app never imports the
reports (they read the games, not the other way round): the reports register their panels here when
they start (``reports.apps``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (the reports app imports this module before the models are loaded)
    from .models import GameSession


@dataclass(frozen=True)
class ResultsPanel:
    """A template and what it shows of a session (``None``: nothing to show for that session)."""

    template: str
    context: Callable[[GameSession], dict[str, Any] | None]


_PANELS: list[ResultsPanel] = []


def register(panel: ResultsPanel) -> None:
    if panel not in _PANELS:
        _PANELS.append(panel)


def panels_for(session: GameSession) -> list[dict[str, Any]]:
    """The registered panels with something to show for the session, in the order registered."""
    shown = []
    for panel in _PANELS:
        context = panel.context(session)
        if context is not None:
            shown.append({"template": panel.template, "context": context})
    return shown
