"""``/ws/me/``: a signed-in student's device hears when a game of one of their classes opens or ends.

The student's home page (and the game page once a game is over) keeps this socket open, so a lobby the
teacher opens shows on every device of the class at once. Messages carry no data: the page then fetches
``/me/games.json``, which checks who is asking as any page does.

Server -> client: {"type": "games"} whenever the list of open games of one of the student's classes may
have changed. The client sends nothing (anything it sends is ignored).
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer

from classrooms.middleware import student_for_session
from classrooms.models import Enrolment

from ..broadcast import class_group
from .db import database_sync_to_async


class ClassGamesConsumer(AsyncWebsocketConsumer):
    groups_joined: list[str]

    async def connect(self):
        self.groups_joined = []
        classroom_ids = await self._classrooms(self.scope.get("session"))
        if not classroom_ids:
            await self.close(code=4403)  # refused before accept(): not a signed-in student of any class
            return
        for classroom_id in classroom_ids:
            group = class_group(classroom_id)
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        await self.accept()

    @database_sync_to_async
    def _classrooms(self, session) -> list[int]:
        student = student_for_session(session)
        if student is None:
            return []
        return list(Enrolment.objects.filter(student=student).values_list("classroom_id", flat=True))

    async def disconnect(self, code):
        for group in self.groups_joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:
                break

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to receive: the socket only listens."""

    async def class_games(self, event):
        await self.send(text_data='{"type": "games"}')
