from django.apps import AppConfig


class CampaignsAppConfig(AppConfig):
    name = "campaigns_app"
    verbose_name = "Refit campaigns"
