"""A campaign's archive (refit-archive/1): everything, as one JSON file, for the players after CG end and for server
operators moving a live campaign between servers."""
