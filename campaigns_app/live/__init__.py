"""The live page: per-seat versioned fragments, the websocket consumer, e-mail notices."""
