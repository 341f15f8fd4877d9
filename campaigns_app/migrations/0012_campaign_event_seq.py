"""Campaign.event_seq: the seq of the campaign's last event, filled in from the events already stored."""

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def fill_event_seq(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Campaign = apps.get_model("campaigns_app", "Campaign")
    EventRecord = apps.get_model("campaigns_app", "EventRecord")
    last = (EventRecord.objects.filter(campaign=OuterRef("pk")).order_by().values("campaign")
            .annotate(last=Max("seq")).values("last"))
    Campaign.objects.update(event_seq=Coalesce(Subquery(last), 0))


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns_app', '0011_campaign_pace'),
    ]

    operations = [
        migrations.AddField(
            model_name='campaign',
            name='event_seq',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(fill_event_seq, migrations.RunPython.noop),
    ]
