"""The between-scenario phase: mark done, secret orders, recon, assisted rolls, rolls at the board (steps and the
scenario), results, supplied values, CG end."""
from django.urls import path

from campaigns_app.phase import order_views, views

urlpatterns = [
    path("phase/done/", views.phase_done, name="phase_done"),
    path("phase/order/", order_views.order_submit, name="phase_order"),
    path("phase/repair/", order_views.repair_roll_submit, name="phase_repair"),
    path("phase/first/", order_views.resolution_order_submit, name="phase_first"),
    path("phase/recon/", order_views.recon_submit, name="phase_recon"),
    path("phase/roll/", views.roll_submit, name="phase_roll"),
    path("phase/board-roll/", views.board_roll_submit, name="phase_board_roll"),
    path("phase/scenario-roll/", views.scenario_roll_submit, name="phase_scenario_roll"),
    path("phase/declare/", views.declare_submit, name="phase_declare"),
    path("phase/results/", views.results_submit, name="phase_results"),
    path("phase/supply/", views.supply_submit, name="phase_supply"),
    path("phase/losses/", views.losses_submit, name="phase_losses"),
    path("phase/recon-location/", views.recon_declare, name="phase_recon_location"),
    path("phase/cg-end/", views.cg_end, name="phase_cg_end"),
]
