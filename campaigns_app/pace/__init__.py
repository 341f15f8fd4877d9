"""Pace: deadlines per due action, pauses, reminders (issue 13)."""
