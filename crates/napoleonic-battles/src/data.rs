//! The system's data for the Battle of Nations components (filled in by the data work).
