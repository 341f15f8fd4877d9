"""The CG Roster, RG Purchase Record, dice log and CG-end pages: one side's RecordView rendered."""
