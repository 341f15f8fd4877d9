from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns_app', '0014_notification_settings'),
    ]

    operations = [
        migrations.AddField(
            model_name='campaign',
            name='pace_request',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name='campaign',
            name='messages_mailed',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
