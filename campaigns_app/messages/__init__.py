"""The players' conversation on the campaign page (public events of kind ``message``, kept with the campaign)."""
