//! Placeholder: the Leipzig map generator lands here.
