//! Melee strengths, columns, shifts and the melee table (filled in by the data work).
