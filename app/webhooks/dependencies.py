"""Load the webhook named in the path, within the caller's project."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Depends, Request

from app.config import Settings
from app.db.dependencies import SessionDep
from app.models import Webhook
from app.projects.dependencies import ProjectDep
from app.webhooks import service


async def get_webhook(webhook_id: uuid.UUID, session: SessionDep, project: ProjectDep) -> Webhook:
    return await service.get_or_404(session, project_id=project.id, webhook_id=webhook_id)


WebhookDep = Annotated[Webhook, Depends(get_webhook)]


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_settings)]
