"""Messages between the two players."""
from django.urls import path

from campaigns_app.messages import views

urlpatterns = [
    path("messages/", views.message_send, name="campaign_message"),
]
