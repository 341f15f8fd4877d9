"""The records: CG Roster, RG Purchase Record, dice log (pages, CSV), CG end, dice verification and export."""
from django.urls import path

from campaigns_app.records import stats_views, story_views
from campaigns_app.records import views as record_views

urlpatterns = [
    path("roster/", record_views.roster, name="records_roster"),
    path("roster.csv", record_views.roster_csv, name="records_roster_csv"),
    path("purchases/", record_views.purchases, name="records_purchases"),
    path("purchases.csv", record_views.purchases_csv, name="records_purchases_csv"),
    path("dice/", record_views.dice_log, name="records_dice"),
    path("dice.csv", record_views.dice_csv, name="records_dice_csv"),
    path("dice/statistics/", stats_views.dice_stats, name="records_dice_stats"),
    path("story/<str:number>/", story_views.story, name="records_story"),
    path("cg-end/", record_views.cg_end, name="records_cg_end"),
    path("cg-end/propose/", record_views.cg_end_propose, name="records_cg_end_propose"),
    path("cg-end/withdraw/", record_views.cg_end_withdraw, name="records_cg_end_withdraw"),
    path("cg-end/decline/", record_views.cg_end_decline, name="records_cg_end_decline"),
    path("cg-end/concede/", record_views.cg_end_concede, name="records_cg_end_concede"),
    path("verify/", record_views.verification, name="records_verify"),
    path("dice.json", record_views.dice_export, name="records_dice_export"),
]
