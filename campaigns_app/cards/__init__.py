"""CG Cards: the card library, the card builder and a campaign's rules page."""
