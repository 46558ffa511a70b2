"""One device per seat, with a class's claims and releases batched.

A device that connects claims its student's seat; one that leaves releases it. When a whole class drops
and reconnects at once (the school's Wi-Fi), those are thousands of small transactions; here the ones that
arrive together go in one (``services.seats_update``), still applied in arrival order: a later device
wins the seat and the earlier one is told to close (4409); a release never clears a seat a newer device
has taken.
"""

from __future__ import annotations

from .. import services
from .trips import trips


async def claim(participant_id: int, connection: str) -> str:
    """Take the seat for ``connection``; the connection that held it before ("" for none)."""
    return await trips(services.seats_update).call(
        services.SeatChange(participant_id, connection, claim=True)
    )


async def release(participant_id: int, connection: str) -> None:
    """Leave the seat, unless a newer device holds it."""
    await trips(services.seats_update).call(services.SeatChange(participant_id, connection, claim=False))
