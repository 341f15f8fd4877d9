"""A player's campaign e-mails (issue 13): each, a daily digest, or none — the one decision every campaign e-mail
goes through (``deliver``), the digest (``digest``), the signed one-click link (``links``), the settings pages."""
