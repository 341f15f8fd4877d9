"""Sealed notes: a side's notes, sealed with a commitment both sides see, revealed by the writer or at CG end."""
